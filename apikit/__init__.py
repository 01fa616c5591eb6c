"""What every app's API shares and nothing of the apps: paging, throttles.

It sits below the apps (the import contracts in pyproject.toml): games, tournaments and ratings page their
lists through it, while deploy, the composition root above them all, is imported by none of them.
"""
