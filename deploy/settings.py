"""Crawford settings, all from the environment.

DATABASE_URL  default: a SQLite file in var/ (the embedded default)
REDIS_URL     default: none -> Celery tasks run in-process, no broker
SECRET_KEY    required, always: there is no fallback key (`make run` and the tests set their own)
DEBUG         default off: production is what runs when a variable is forgotten
ALLOWED_HOSTS
"""

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CRAWFORD_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in ("1", "true", "yes", "on")


# Production is the default: a forgotten DEBUG must not serve tracebacks, and a forgotten SECRET_KEY must stop
# the site rather than sign sessions with a key anyone can read here. `make run` keeps a random key of its
# own in var/ and turns DEBUG on; the tests' settings (tests/settings.py) do the same.
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    raise RuntimeError("SECRET_KEY must be set (in production: /etc/crawford/env; `make run` makes its own)")
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "axes",
    "apikit",
    "eventlog",
    "players",
    "games",
    "tournaments",
    "ratings",
    "analysis",
    "seasons",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "deploy.middleware.RefuseNulMiddleware",
    "deploy.proxy.TrustedProxyMiddleware",
    "deploy.csp.ContentSecurityPolicyMiddleware",  # every page: our own scripts and styles only
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # after the session (the switch's choice is kept there... and in a cookie), before CommonMiddleware (Django's order)
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
]
if os.environ.get("DATABASE_REPLICA_URL"):
    # after authentication: it asks whether the request is signed in (deploy/replica.py)
    MIDDLEWARE.insert(MIDDLEWARE.index("django.contrib.auth.middleware.AuthenticationMiddleware") + 1,
                      "deploy.replica.LagTolerantReadsMiddleware")

# axes counts failed logins; then Django's ModelBackend, which here reads a session's user with their player
# and powers in one query (players/authentication.py)
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "players.authentication.ModelBackend"]

# failed logins are counted per address and user name: after 10 in a row, that pair is
# locked out for 15 minutes (HTTP 429); a successful login resets the pair's count. An address
# trying many user names is locked out after 30 failures in 15 minutes (deploy/login_lockout.py)
AXES_HANDLER = "deploy.login_lockout.PairAndAddressLockout"
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "10"))
AXES_ADDRESS_FAILURE_LIMIT = int(os.environ.get("AXES_ADDRESS_FAILURE_LIMIT", "30"))
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["ip_address", "username"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# the reverse proxies whose X-Forwarded-For is believed (addresses or networks, comma-separated; the shipped
# nginx connects from 127.0.0.1). Empty: the connection's own address is the client's (deploy/proxy.py)
TRUSTED_PROXIES = [p.strip() for p in os.environ.get("TRUSTED_PROXIES", "").split(",") if p.strip()]
AXES_CLIENT_IP_CALLABLE = "deploy.proxy.client_address"

# who may create events: a club's directors (under its name) and officials; members too, when CASUAL_EVENTS is on,
# for casual events of at most CASUAL_EVENT_MAX_PLAYERS players (a limit written into the event when it is made)
CASUAL_EVENTS = env_bool("CASUAL_EVENTS", False)
CASUAL_EVENT_MAX_PLAYERS = int(os.environ.get("CASUAL_EVENT_MAX_PLAYERS", "32"))
# the process manager creates an event's matches in transactions of at most this many: every append waits for
# the log's advisory lock, so a 100-player round robin must not hold it for 4,950 matches
EVENT_MATCHES_PER_TRANSACTION = int(os.environ.get("EVENT_MATCHES_PER_TRANSACTION", "25"))
# what a tournament asks of the ratings (a club's rating ramp, seeding by rating): named here, the composition
# root, so that tournaments imports nothing of ratings (an object with club_ramp(club_id) and ratings(player_ids))
TOURNAMENT_RATINGS_PROVIDER = "ratings.selectors.TournamentRatings"
# and what the ratings ask of the events (which are public, to hide hidden events' results): a function of ids
PUBLISHED_EVENTS_PROVIDER = "tournaments.selectors.published_event_ids"
# and what the seasons ask of an event (published.tournaments.EventFinishes: its places and wins): a function of its id
EVENT_FINISHES_PROVIDER = "tournaments.finishes.event_finishes"
# and what the house's rights ask of the events (whether a player entered one its user directs: the director reads
# that player's fair-play review): a function of (the user's id, the player's id)
EVENT_ENTRANTS_PROVIDER = "tournaments.selectors.directs_entrant"
# and of a chouette session the club counts in a season (published.chouettes.ChouetteSheet): a function of its id
CHOUETTE_SHEET_PROVIDER = "games.chouettes.season_sheet"
# a refusal in the reader's language, from the refusals' catalogue (the API's): the console says them too
REFUSAL_TEXT = "deploy.refusals.said"
# what `manage.py load_demo` adds after its club night, each a function of (director=, club=, players=, event=,
# rnd=) returning a line to print: named here so that tournaments imports nothing of the apps above it
DEMO_EXTRAS = ["seasons.demo.load"]
# the director's console prints, beside the event's own sheets, the table of every season that counts it
CONSOLE_SHEETS = ["seasons.sheets.console_links"]

ROOT_URLCONF = "deploy.urls"
WSGI_APPLICATION = "deploy.wsgi.application"
ASGI_APPLICATION = "deploy.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.context.your_match",  # the "your match" banner, and a match's table on its pages
            ]
        },
    }
]

# Under ASGI (the live nodes, deploy/asgi.py) Django runs each request's sync code on a thread of its own: a
# connection kept across requests would be one per request that lingers after it, so there none is kept (Django's
# documentation: persistent connections are for WSGI's long-lived threads).
_ASGI = os.environ.get("CRAWFORD_SERVER") == "asgi"
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'crawford.sqlite3'}",
        conn_max_age=0 if _ASGI else int(os.environ.get("CONN_MAX_AGE", "600")),
        conn_health_checks=True,  # a connection kept across requests is checked before reuse
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, with a health check that sends nothing while the connection is quiet (deploy/postgresql/base.py)
    DATABASES["default"]["ENGINE"] = "deploy.postgresql"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # several threads of runserver and the in-process tasks share one file: WAL lets
    # readers run beside the writer, IMMEDIATE makes writers queue instead of failing
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20,
        transaction_mode="IMMEDIATE",
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# the reads every command makes (its user, the match's new events) as statements PostgreSQL plans once per
# connection (eventlog/prepared.py); 0 behind a transaction-mode pooler that cannot carry them (PgBouncer < 1.21)
DATABASE_PREPARED_READS = env_bool("DATABASE_PREPARED_READS", True)
# A PostgreSQL streaming replica for the public pages (deploy/replica.py): only when DATABASE_REPLICA_URL is set.
# Anonymous GET/HEAD requests read the read models there; writes, transactions and anybody signed in stay on the
# primary. Without the variable there is no second alias, no router and no middleware: nothing changes.
DATABASE_ROUTERS = []
if os.environ.get("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = dj_database_url.parse(
        os.environ["DATABASE_REPLICA_URL"], conn_max_age=DATABASES["default"].get("CONN_MAX_AGE", 0),
        conn_health_checks=True,
    )
    if DATABASES["replica"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["replica"]["ENGINE"] = "deploy.postgresql"
    # the tests' database of a replica is the primary's (the same server, its own connection): Django creates none
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    DATABASE_ROUTERS = ["deploy.replica.ReplicaRouter"]
# Behind a pooler in transaction mode (PgBouncer: deploy/compose.yaml), a server connection is a client's for one
# transaction only: a server-side cursor (Django's QuerySet.iterator() outside a transaction) would be gone before
# its next fetch. Migrations go to the server directly (a DDL's locks and a long transaction have no place in a pool)
if env_bool("DATABASE_TRANSACTION_POOLER", False):
    for _alias in DATABASES.values():
        _alias["DISABLE_SERVER_SIDE_CURSORS"] = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# English unless the browser asks for French (Accept-Language) or the switch on every page chose it (set_language,
# remembered in the django_language cookie). API clients that send no Accept-Language keep the English they always got.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
# one catalogue for the whole site, shipped in the project package (so in the wheel too); the .mo files are committed,
# compiled from the .po files: a fresh machine needs no GNU gettext (deploy/locale/README.md)
LOCALE_PATHS = [Path(__file__).resolve().parent / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))

# the site's own login, open to every member (the admin's accepts staff only)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# who sees (and may rebuild after) the streams a projection set aside, in the admin: the officials
PROJECTION_FAILURES_SEEN_BY = "players.officiate"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "players.authentication.TokenAuthentication",  # the user's player and powers in the same query
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "deploy.api_errors.exception_handler",
    # DRF's JSON parser with a bound on nesting (deploy/parsers.py); forms and .mat uploads as usual
    "DEFAULT_PARSER_CLASSES": ["deploy.parsers.JSONParser", "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
    # DRF's JSON written by orjson (deploy/renderers.py); the browsable API as usual
    "DEFAULT_RENDERER_CLASSES": ["deploy.renderers.JSONRenderer", "rest_framework.renderers.BrowsableAPIRenderer"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
    # anonymous clients per address, signed-in ones per user (apikit/throttling.py reads API_THROTTLE_RATES)
    "DEFAULT_THROTTLE_CLASSES": ["apikit.throttling.AnonymousThrottle", "apikit.throttling.UserThrottle"],
}
# every list and stream endpoint answers at most API_PAGE_MAX items a page (?limit=, default API_PAGE_SIZE)
API_PAGE_SIZE = int(os.environ.get("API_PAGE_SIZE", "100"))
API_PAGE_MAX = int(os.environ.get("API_PAGE_MAX", "500"))
API_THROTTLE_RATES = {
    "anon": os.environ.get("API_THROTTLE_ANON", "120/minute"),
    "user": os.environ.get("API_THROTTLE_USER", "600/minute"),
}
# the throttles' counts (the `limits` library's storage URI): Redis when there is one, shared by every gunicorn
# worker and node; else this process's memory
API_THROTTLE_STORAGE = os.environ.get("API_THROTTLE_STORAGE") or os.environ.get("REDIS_URL") or "memory://"
if os.environ.get("REDIS_URL"):
    CACHES = {"default": {"BACKEND": "deploy.cache.SharedClientRedisCache",  # Django's, a client per server made once
                          "LOCATION": os.environ["REDIS_URL"], "KEY_PREFIX": "crawford"}}
SPECTACULAR_SETTINGS = {
    "TITLE": "Crawford API",
    "DESCRIPTION": "Backgammon matches recorded move by move as an append-only event log.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # the browsable UI's scripts come from our own static files, never from a CDN
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # apikit.ids: a path's row id, a bigint
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "format": "int64", "minimum": 0,
                                        "maximum": 2**63 - 1}},
    # drf-spectacular's own hook first (enum names), then every operation's refusals: the Error body
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "deploy.openapi.declare_refusals"],
    # a match's and an event's correct_result bodies share their one-value "type": one enum, named
    # one name per choice set that two components share (else drf-spectacular names them by a hash: W001)
    "ENUM_NAME_OVERRIDES": {
        "CorrectResultTypeEnum": [("correct_result", "correct_result")],
        "SetRatedTypeEnum": [("set_rated", "set_rated")],  # a match's command and an event's
        "SeasonKindEnum": [("season", "season"), ("series", "series")],
        "ResignationKindEnum": [("single", "single"), ("gammon", "gammon"), ("backgammon", "backgammon")],
        "ImportJobStatusEnum": [("queued", "queued"), ("running", "running"), ("done", "done"), ("failed", "failed")],
        "ExportJobStatusEnum": [("queued", "queued"), ("running", "running"), ("done", "done")],
        "PayoutTableEnum": "tournaments.commands.PAYOUT_TABLES",  # the main pool's, the side pool's, the Calcutta's
    },
    # no deep links: with them Swagger UI puts a link inside each operation's button (axe-core: nested-interactive)
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
}

# -- e-mail (players told where to play: tournaments/notices.py) ------------------
# EMAIL_BACKEND: Django's SMTP by default in production (EMAIL_HOST…); the console (the log) in the embedded run
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend"
                               if os.environ.get("REDIS_URL") else "django.core.mail.backends.console.EmailBackend")
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", "")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "crawford@localhost")
SITE_URL = os.environ.get("SITE_URL", "")  # the address in e-mails' links (none when unset)

# online play (games/online.py): a page beats its presence every ONLINE_HEARTBEAT seconds, and a player whose last
# beat is older than ONLINE_PRESENCE_GRACE seconds is away; the disconnect clock's presets a challenge offers
ONLINE_HEARTBEAT = 5
ONLINE_PRESENCE_GRACE = 20
ONLINE_DISCONNECT_PRESETS = {"short": 60, "standard": 180, "long": 600}

# -- Celery ---------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
# the live pages' streams (eventlog/live.py) one process serves at once, in all and per client address; past
# them a page is answered 503 with Retry-After and asks every few seconds instead (a club behind one address
# with every tablet and screen open stays well under the second)
LIVE_MAX_STREAMS = int(os.environ.get("LIVE_MAX_STREAMS", "4000"))
# public PDFs (apikit/printing.py) a client may ask for: each costs seconds of CPU when not printed already
PDF_THROTTLE_RATE = os.environ.get("PDF_THROTTLE_RATE", "20/minute")
# games of .mat records a member may import an hour (games/imports.py): a record's cost, not its request, counts
IMPORT_GAMES_RATE = os.environ.get("IMPORT_GAMES_RATE", "1000/hour")
LIVE_MAX_STREAMS_PER_CLIENT = int(os.environ.get("LIVE_MAX_STREAMS_PER_CLIENT", "100"))
# the host named: Celery takes a producer even to run a task in-process, and kombu warned at every `make run`
# that a bare memory:// gave no hostname
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL  # embedded default: tasks run in-process
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True  # a task killed mid-way is delivered again
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ROUTES = {
    "eventlog.tasks.*": {"queue": "projections"},
    "tournaments.tasks.*": {"queue": "default"},
    # seconds of gnubg per match: their own queue (and worker), never in front of standings or ratings
    "analysis.tasks.*": {"queue": "analysis"},
}
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_BEAT_SCHEDULER = os.environ.get("CELERY_BEAT_SCHEDULER", "django_celery_beat.schedulers:DatabaseScheduler")
CELERY_BEAT_SCHEDULE = {
    "sweep-projections": {"task": "eventlog.tasks.sweep_projections", "schedule": float(os.environ.get("SWEEP_SECONDS", "30"))},
    "advance-events": {"task": "tournaments.tasks.advance_pending", "schedule": float(os.environ.get("SWEEP_SECONDS", "30"))},
    "sweep-analyses": {"task": "analysis.tasks.sweep_analyses", "schedule": float(os.environ.get("SWEEP_SECONDS", "30"))},
    "sweep-imports": {"task": "games.tasks.sweep_imports", "schedule": float(os.environ.get("SWEEP_SECONDS", "30"))},
    "sweep-exports": {"task": "games.tasks.sweep_exports", "schedule": float(os.environ.get("SWEEP_SECONDS", "30"))},
    # ladders' and leagues' deadlines are days long: a sweep every few minutes is on time
    "sweep-deadlines": {"task": "tournaments.tasks.sweep_deadlines",
                        "schedule": float(os.environ.get("DEADLINE_SWEEP_SECONDS", "300"))},
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# -- match analysis (GNU Backgammon, run as its own process: see analysis/gnubg.py) --------
GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")
# the depth players see and the pages aggregate, recorded with each result: 2-ply, gnubg's own analysis setting
# and the one clubs compare with XG (0-ply PRs of human matches differ from it by 0.3-1.0, enough to change gnubg's
# rating word). A 7-point match costs gnubg 21-37 CPU-seconds at 2-ply (measured by bench/analysis.py)
ANALYSIS_PLIES = int(os.environ.get("ANALYSIS_PLIES", "2"))
# shown at once (under a CPU-second a 7-point match) while the deeper analysis runs, then replaced by it; set it to
# ANALYSIS_PLIES for one analysis only
ANALYSIS_QUICK_PLIES = int(os.environ.get("ANALYSIS_QUICK_PLIES", "0"))
ANALYSIS_TIMEOUT_SECONDS = float(os.environ.get("ANALYSIS_TIMEOUT_SECONDS", "900"))
# the embedded default (no broker): a depth deeper than the quick one is analysed by a thread of the serving
# process, not in the request that finished the match (analysis/background.py)
ANALYSIS_IN_THE_BACKGROUND = env_bool("ANALYSIS_IN_THE_BACKGROUND", not REDIS_URL)

# -- production hardening (manage.py check --deploy) ------------------------------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # one line per projection run is noise when tasks run in-process after every command
    "loggers": {"celery.app.trace": {"level": "INFO" if REDIS_URL else "WARNING"}},
}
