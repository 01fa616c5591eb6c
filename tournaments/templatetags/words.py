"""Words of the program's own turned into the reader's: ``{{ h.reason|reason_text }}``."""

from django import template

from .. import names

register = template.Library()
register.filter("reason_text", names.reason_text)
