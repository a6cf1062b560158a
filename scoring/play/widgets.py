"""Widgets of the hand form that write their ``<input>`` in Python.

A hand form has about 120 boxes and radio buttons. Django renders each one through
its template engine (``django/forms/widgets/input.html`` and ``attrs.html``), which
made up most of a table page's time. These widgets produce the same markup as those
templates (same attributes, in the same order, escaped the same way) without the
template engine; anything else (a label-wrapped option, another template) still goes
through Django's renderer. ``scoring/tests/play/test_widgets.py`` compares the two.
"""

from __future__ import annotations

from django import forms
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

# The templates whose whole output is ``django/forms/widgets/input.html``.
INPUT_TEMPLATES = frozenset(
    {
        "django/forms/widgets/text.html",
        "django/forms/widgets/hidden.html",
        "django/forms/widgets/checkbox.html",
        "django/forms/widgets/radio_option.html",
        "django/forms/widgets/input.html",
    }
)


def input_html(widget: dict) -> str:
    """``django/forms/widgets/input.html`` for a widget context dict."""
    parts = [
        '<input type="',
        conditional_escape(widget["type"]),
        '" name="',
        conditional_escape(widget["name"]),
        '"',
    ]
    value = widget.get("value")
    if value is not None:
        parts += [' value="', conditional_escape(str(value)), '"']
    for name, attr in widget["attrs"].items():
        if attr is False:
            continue
        parts += [" ", conditional_escape(name)]
        if attr is not True:
            parts += ['="', conditional_escape(str(attr)), '"']
    parts.append(">")
    return "".join(parts)


class FastRenderMixin:
    def _render(self, template_name, context, renderer=None):
        widget = context["widget"]
        if template_name in INPUT_TEMPLATES and not widget.get("wrap_label"):
            return mark_safe(input_html(widget))
        return super()._render(template_name, context, renderer)


class TextInput(FastRenderMixin, forms.TextInput):
    pass


class HiddenInput(FastRenderMixin, forms.HiddenInput):
    pass


class CheckboxInput(FastRenderMixin, forms.CheckboxInput):
    pass


class RadioSelect(FastRenderMixin, forms.RadioSelect):
    """Only its options (``{% for radio in field %}{{ radio.tag }}``) are fast; the
    whole group, rendered at once, still uses Django's template."""
