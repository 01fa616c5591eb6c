"""The product's settings with the bench's floor endpoint mounted (bench/api.py only; never the product's URLs)."""

from deploy.settings import *  # noqa: F401,F403 - the same settings in every respect but the URL conf

ROOT_URLCONF = "bench.floor_urls"
