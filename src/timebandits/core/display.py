"""What the notebooks show, as one-line calls: figures, readable tables, the scorecard, verdicts
and their sub-checks, and bound comparisons."""

from __future__ import annotations

import ast
import io
import math
import numbers
import re

import numpy as np
import pandas as pd
from IPython.display import Image, Markdown, display
from matplotlib import pyplot as plt
from matplotlib.lines import Line2D

from . import paths
from .bounds import informative_from
from .claims import DETAIL_COLUMNS as DETAIL_FILE_COLUMNS
from .claims import EXACT, NOT_CHECKABLE, STATISTICAL, SUMMARY_COLUMNS, VERDICTS
from .plotting import apply_style, log_safe, series_style

VERDICT_COLOURS = {"reproduced": "#d8f0d8", "not reproduced": "#f6d5d5",
                   "inconclusive": "#f5ecc8", "not checkable": "#e4e4e4"}
EVIDENCE_HEADINGS = {
    STATISTICAL: "Statistical tests over the runs",
    EXACT: "Exact computations (closed forms, enumeration, exact optimisation; no sampling error)",
    NOT_CHECKABLE: "Not checkable here",
}
# The sub-check table: the details file's columns but the headline, which repeats the
# statistic's deciding number.
DETAIL_COLUMNS = [c for c in DETAIL_FILE_COLUMNS if c != "headline"]
SCORECARD_HEADER = {
    "paper": ("", "paper"), "scope": ("", "scope"), "claims": ("", "claims"),
    "reproduced": ("statistical tests", "reproduced"),
    "not_reproduced": ("statistical tests", "not reproduced"),
    "inconclusive": ("statistical tests", "inconclusive"),
    "exact": ("exact computations", "all"), "exact_holds": ("exact computations", "hold"),
    "exact_fails": ("exact computations", "fail"), "not_checkable": ("", "not checkable"),
    "undecidable": ("", "cannot reach both verdicts"),
}
SCORECARD_COLOURS = {"reproduced": VERDICT_COLOURS["reproduced"],
                     "exact_holds": VERDICT_COLOURS["reproduced"],
                     "not_reproduced": VERDICT_COLOURS["not reproduced"],
                     "exact_fails": VERDICT_COLOURS["not reproduced"],
                     "inconclusive": VERDICT_COLOURS["inconclusive"]}

# A reader of a notebook needs every provenance reason and every run, not pandas' abbreviations.
pd.set_option("display.max_colwidth", None)
pd.set_option("display.max_rows", 500)
pd.set_option("display.max_columns", 60)


def markdown_text(text: str) -> str:
    """``text`` escaped so that Markdown shows it literally (``j*=5`` stays ``j*=5``, ``$`` is
    not mathematics)."""
    for char in "\\`*_$":
        text = text.replace(char, "\\" + char)
    return text


def number(value, digits: int = 4) -> str:
    """One cell as a reader wants it: blank for a missing value, integers exact (``279,936``)
    or, from a million, short when round (``1e7``, ``2.5e6``), other floats from 1,000 to a
    million to the unit (``1,075``) and otherwise to ``digits`` significant digits,
    ``yes``/``no`` for booleans, lists and dicts without quotes (``[1, 14/15]``); text that
    spells a number or a Python literal is shown as that value."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, str):
        return _text(value, digits)
    if isinstance(value, (list, tuple)):
        items = ", ".join(number(v, digits) for v in value)
        return f"[{items}]" if isinstance(value, list) else f"({items})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {number(v, digits)}" for k, v in value.items()) + "}"
    if not isinstance(value, numbers.Real):
        return str(value)
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if float(value).is_integer() and abs(value) < 1e15:
        integer = int(value)
        short = f"{integer:.3g}"
        if abs(integer) >= 1e6 and float(short) == integer:
            return _exponent(short)
        return f"{integer:,}"
    if 1e3 <= abs(value) < 1e6:
        return f"{value:,.0f}"
    return _exponent(f"{value:.{digits}g}")


def _text(value: str, digits: int) -> str:
    """Text as ``number`` shows it: a number (``10000000.0``) or a Python literal of a config
    value (``['1', '14/15']``, ``{'uniform': [1, 6]}``) without quotes, anything else as is."""
    stripped = value.strip()
    if stripped[:1] in "[({" and stripped:
        try:
            return number(ast.literal_eval(stripped), digits)
        except (ValueError, SyntaxError):
            return value
    try:
        parsed = float(stripped)
    except ValueError:
        return value
    return value if not stripped or stripped.isalpha() else number(parsed, digits)


def _exponent(text: str) -> str:
    """``1e+07`` → ``1e7``, ``2.5e-05`` → ``2.5e-5``."""
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    return f"{mantissa}e{int(exponent)}"


def _is_text(column: pd.Series) -> bool:
    return not (pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column))


def readable(frame: pd.DataFrame, digits: int = 4):
    """``frame`` formatted for reading (``number`` in every cell), text columns left-aligned and
    wrapped, numbers right-aligned, the index hidden when it only numbers rows (an unnamed
    integer index, e.g. of a selection)."""
    text = [i for i, c in enumerate(frame.columns) if _is_text(frame.iloc[:, i])]
    styles = [{"selector": "th.col_heading", "props": "text-align: left; vertical-align: bottom;"},
              {"selector": "th.row_heading", "props": "text-align: left; vertical-align: top;"},
              {"selector": "td", "props": "vertical-align: top;"}]
    styles += [{"selector": f"th.col_heading.col{i}, td.col{i}",
                "props": ("text-align: left; max-width: 44em;" if i in text else
                          "text-align: right; white-space: nowrap;")}
               for i in range(frame.shape[1])]
    styler = frame.style.format(lambda v: number(v, digits)).set_table_styles(styles)
    styler = styler.format_index(lambda v: number(v, digits), axis=0)
    if frame.index.nlevels == 1 and frame.index.name is None and (
            pd.api.types.is_integer_dtype(frame.index)):
        styler = styler.hide(axis="index")
    return styler


def show_matplotlib(fig) -> None:
    """Display a figure as a PNG (the Agg backend that core.plotting selects has no inline
    display of its own) and close it."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    plt.close(fig)
    display(Image(data=buffer.getvalue()))


def show_figure(root: str, paper: str, figure: dict, figure_id: str) -> None:
    """A rendered figure under its title, file name and caption."""
    display(Markdown(f"**{markdown_text(figure['title'])}** "
                     f"(`{paths.figure(root, paper, figure_id, 'pdf')}`)  \n"
                     f"{markdown_text(figure['caption'])}"))
    display(Image(filename=paths.figure(root, paper, figure_id, "png")))


def read_table(root: str, paper: str, name: str) -> pd.DataFrame:
    """The table ``results/tables/<paper>/<name>.csv`` as data (for selecting or grouping)."""
    return pd.read_csv(paths.table(root, paper, name))


def table(root: str, paper: str, name: str):
    """The table ``results/tables/<paper>/<name>.csv``, formatted for reading."""
    return readable(read_table(root, paper, name))


def _read_checked(path: str, columns: list[str]) -> pd.DataFrame:
    frame = pd.read_csv(path)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: missing columns {missing} (expected {columns})")
    unknown = set(frame["verdict"]) - set(VERDICTS) if "verdict" in frame else set()
    unknown |= set(frame["evidence"]) - set(EVIDENCE_HEADINGS) if "evidence" in frame else set()
    if unknown:
        raise ValueError(f"{path}: unknown verdict or evidence values {sorted(unknown)}")
    return frame


def _colour_verdicts(styler):
    return styler.map(lambda v: f"background-color: {VERDICT_COLOURS[v]}; white-space: nowrap;",
                      subset=["verdict"])


def _counts(verdicts: pd.Series) -> str:
    counts = verdicts.value_counts()
    return ", ".join(f"{counts[v]} {v}" for v in VERDICTS if v in counts)


def reachable(row) -> str:
    """Which verdicts the claim could reach as configured, with the reason where not both: the
    config's ``one_sided`` reason if it gives one, else what the witnesses came out as (the
    claims table keeps both)."""
    if row.evidence == NOT_CHECKABLE:
        return "neither (not checkable)"
    if row.can_reproduce and row.can_refute:
        return "both"
    side = ("neither" if not (row.can_reproduce or row.can_refute)
            else "only reproduced" if row.can_reproduce else "only not reproduced")
    witnesses, _, why = str(row.decidability).partition(". Why (config): ")
    return f"{side}: {why or witnesses}"


def verdicts(root: str, paper: str) -> None:
    """One line per claim, grouped by the evidence that decides it (statistical tests, exact
    computations, not checkable): the claim, its text and place in the paper, the verdict
    (coloured) and the number that decides it. How pooled sub-tests were combined follows each
    table, one line per claim."""
    path = paths.claims(root, paper)
    frame = _read_checked(path, SUMMARY_COLUMNS)
    for evidence, heading in EVIDENCE_HEADINGS.items():
        rows = frame[frame["evidence"] == evidence]
        if rows.empty:
            continue
        display(Markdown(f"**{heading}** — {len(rows)} claim{'s' * (len(rows) > 1)}: "
                         f"{_counts(rows['verdict'])}"))
        where = rows["where"].fillna("").astype(str)
        shown = pd.DataFrame({"claim": rows["claim"], "scope": rows["scope"],
                              "text": rows["text"] + where.map(lambda w: f" ({w})" if w else ""),
                              "verdict": rows["verdict"], "decided by": rows["decided_by"],
                              "thresholds": rows["thresholds"].fillna(""),
                              "can reach": [reachable(r) for r in rows.itertuples()]})
        display(_colour_verdicts(readable(shown.reset_index(drop=True))))
        notes = rows.dropna(subset=["multiplicity"])
        notes = notes[notes["multiplicity"].str.strip() != ""]
        if not notes.empty:
            display(Markdown("How the sub-tests of a claim are combined:\n\n" + "\n".join(
                f"- **{markdown_text(c)}**: {markdown_text(m)}"
                for c, m in zip(notes["claim"], notes["multiplicity"]))))


def verdict_details(root: str, paper: str):
    """Every sub-check behind the verdicts, one per line: claim, scope (e.g. the experiment),
    evidence, role ("decides" the verdict or "supports" it), verdict (coloured), statistic."""
    frame = _read_checked(paths.claim_details(root, paper), DETAIL_COLUMNS)
    return _colour_verdicts(readable(frame[DETAIL_COLUMNS])).set_properties(
        subset=["evidence", "role"], **{"white-space": "nowrap"})


def scorecard(root: str):
    """The scorecard (``results/scorecard.csv``): per paper, its claims counted by verdict,
    statistical tests apart from exact computations, with one line on how to read it."""
    frame = pd.read_csv(paths.scorecard(root))
    display(Markdown(
        "**Scorecard.** One row per paper and scope (the paper's own claims; our extensions, "
        "sensitivity runs and extra experiments; errata, statements of the paper shown false, "
        "where a failing exact computation confirms the erratum): its claims, the statistical "
        "tests over the runs by verdict, the exact computations (no sampling error) that hold or "
        "fail, the claims that cannot be checked, and those that as configured cannot reach both "
        "verdicts; each paper's notebook gives every verdict with its number."))
    frame = frame[list(SCORECARD_HEADER)]
    erratum = (frame["scope"] == "erratum").to_numpy()
    frame.columns = pd.MultiIndex.from_tuples(SCORECARD_HEADER.values())

    def colours(table: pd.DataFrame) -> pd.DataFrame:
        """Verdict colours; an erratum's counts in a neutral colour (its failure is expected)."""
        styles = pd.DataFrame("", index=table.index, columns=table.columns)
        for column, colour in SCORECARD_COLOURS.items():
            key = SCORECARD_HEADER[column]
            row_colour = np.where(erratum, VERDICT_COLOURS["not checkable"], colour)
            styles[key] = [f"background-color: {c}" if v else ""
                           for c, v in zip(row_colour, table[key].to_numpy())]
        return styles

    return readable(frame).apply(colours, axis=None)


def _natural(name: str) -> list:
    """Sort key putting ``k1_j2`` before ``k1_j10``."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _curve_label(name: str, prefix: str) -> str:
    return name.removeprefix(prefix).strip("_").replace("_", " ") or name


def plot_bound(table: pd.DataFrame, experiment: str, bound: str, title: str = ""):
    """Log-log, top: the empirical mean of each curve of ``experiment`` (solid) against
    ``bound`` (dashed), which is a bound's name or a prefix (e.g. ``lemma2``: one bound per
    suboptimal pair, each pair in its own colour); faded where the bound is vacuous (not below
    the trivial bound), the t where every bound shown is vacuous shaded. Bottom: mean / bound.
    Zeros and rounding residues of the mean are gaps, not spikes."""
    apply_style()
    rows = table[(table["experiment"] == experiment) & table["bound"].str.startswith(bound)]
    names = sorted(rows["bound"].unique(), key=_natural)
    if not names:
        raise KeyError(f"the bound table has no bound {bound!r} for experiment {experiment!r}")
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.5, 5.2), sharex=True,
                                      gridspec_kw={"height_ratios": [2, 1]})
    handles = []
    series = [(name, metric, group) for name in names
              for metric, group in rows[rows["bound"] == name].groupby("metric", sort=True)]
    for i, (name, metric, group) in enumerate(series):
        g = group.sort_values("t")
        t, mean = g["t"].to_numpy(), log_safe(g["mean"])
        if not np.isfinite(mean).any():  # a curve that is zero throughout has nothing to draw
            continue
        # One bound: its curve in black, each metric in its own style. Several: one colour each.
        style = {**(series_style(names.index(name), len(names)) if len(names) > 1 else
                    series_style(i)), "linestyle": "-"}
        bound_colour = style["color"] if len(names) > 1 else "black"
        label = (_curve_label(name, bound) if len(names) > 1 else f"mean {metric}")
        top.plot(t, mean, linewidth=1.3, **style)
        handles.append(Line2D([], [], linewidth=1.3, **style, label=label))
        if len(names) > 1 or i == 0:
            value = log_safe(g["bound_value"])
            vacuous = g["vacuous"].to_numpy(dtype=bool)
            top.plot(t, np.where(vacuous, np.nan, value), color=bound_colour, linestyle="--",
                     linewidth=1.0)
            top.plot(t, np.where(vacuous, value, np.nan), color=bound_colour, linestyle="--",
                     linewidth=0.8, alpha=0.35)
        bottom.plot(t, log_safe(mean / g["bound_value"].to_numpy()), linewidth=1.1, **style)
    # Several bounds: the dashed keys stand for every colour, so they are grey.
    key_colour = "0.5" if len(names) > 1 else "black"
    key = [Line2D([], [], color=key_colour, linestyle="--", linewidth=1.0,
                  label="dashed: its bound (same colour)" if len(names) > 1
                  else f"{names[0]} bound"),
           Line2D([], [], color=key_colour, linestyle="--", linewidth=0.8, alpha=0.35,
                  label="faded: bound vacuous (≥ trivial bound)" + (
                      " (same colour)" if len(names) > 1 else ""))]
    all_vacuous = rows.groupby("t")["vacuous"].all()
    if all_vacuous.any():
        top.axvspan(all_vacuous.index.min(), all_vacuous[all_vacuous].index.max(), color="0.92",
                    zorder=0)
        key.append(plt.Rectangle((0, 0), 1, 1, color="0.92", label="every bound vacuous"))
    top.set_xscale("log")
    top.set_yscale("log")
    top.set_ylabel("value (log)")
    top.set_title(title or f"{experiment}: empirical mean vs {bound}")
    bottom.set_yscale("log")
    bottom.axhline(1.0, color="0.3", linewidth=0.8)
    bottom.set_ylabel("mean / bound (log)")
    bottom.set_xlabel("t (log scale)")
    key.append(Line2D([], [], color="0.3", linewidth=0.8, label="mean / bound = 1"))
    heading = "solid: mean over runs, one colour per curve" if len(names) > 1 else None
    fig.legend(handles=handles + key, loc="upper left", bbox_to_anchor=(0.99, 0.93),
               ncol=2 if len(handles) > 14 else 1, fontsize=7, title=heading,
               title_fontsize=7, frameon=False)
    show_matplotlib(fig)


def bound_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per (experiment, bound family, metric; every suboptimal pair's pulls together): the largest
    ratio mean/bound over the checkpoints where the bound is informative, and where it occurs
    (blank if the bound is vacuous everywhere), the first t from which the bound is informative,
    checkpoints where the mean or any run exceeds the bound, and the share of vacuous
    checkpoints. A vacuous checkpoint never counts as support (core.bounds)."""
    family = table["bound"].str.split("_").str[0]
    metric = table["metric"].where(~((family != "theorem2") & table["metric"].str.startswith("pulls")),
                                   "pulls (every suboptimal pair)")
    table = table.assign(family=family, metric=metric)
    rows = []
    for (exp, fam, met), g in table.groupby(["experiment", "family", "metric"], sort=False):
        informative = g[~g["vacuous"]]
        ratios = informative["ratio"].dropna()  # 0/0 where a bound and the mean are both 0
        worst = informative.loc[ratios.idxmax()] if not ratios.empty else None
        rows.append({"experiment": exp, "bound": fam, "metric": met,
                     "max mean/bound (informative)": math.nan if worst is None else worst["ratio"],
                     "at t": math.nan if worst is None else worst["t"],
                     "informative from t": informative_from(g),
                     "checkpoints mean > bound": int((g["mean"] > g["bound_value"]).sum()),
                     "checkpoints any run > bound": int((g["runs_exceeding"] > 0).sum()),
                     "share vacuous": float(g["vacuous"].mean())})
    return pd.DataFrame(rows)
