"""A string field for a whole file sent as text (a .mat record, a pasted list of members).

DRF's CharField refuses surrogate characters with a Python loop over every character: a fifth of a second of a
web thread for the largest .mat record. The same refusal, with the same message and code, by one regular
expression.
"""

import re

from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.validators import ProhibitSurrogateCharactersValidator

_SURROGATE = re.compile("[\ud800-\udfff]")


class NoSurrogates:
    message = ProhibitSurrogateCharactersValidator.message
    code = ProhibitSurrogateCharactersValidator.code

    def __call__(self, value):
        found = _SURROGATE.search(str(value))
        if found:
            raise ValidationError(self.message.format(code_point=ord(found.group())), code=self.code)


class LongText(serializers.CharField):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.validators = [NoSurrogates() if isinstance(v, ProhibitSurrogateCharactersValidator) else v
                           for v in self.validators]
