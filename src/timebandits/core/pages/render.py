"""HTML fragments and pages from the Jinja2 templates in ``core/pages/templates`` (never strings
concatenated by hand): every value is escaped unless a template marks it as HTML."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

TEMPLATES = Path(__file__).parent / "templates"
_ENVIRONMENT = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=select_autoescape(["html", "j2"]),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def render(template: str, **context) -> str:
    """``template`` (a file name in ``core/pages/templates``) filled with ``context``."""
    return _ENVIRONMENT.get_template(template).render(**context)
