"""Words of the program's own turned into the reader's: ``{{ h.reason|reason_text }}``."""

from django import template

from .. import names, selectors

register = template.Library()
register.filter("reason_text", names.reason_text)
register.filter("bracket_name", selectors.bracket_name)  # "consolation" -> "Consolation" (Consolante in French)
