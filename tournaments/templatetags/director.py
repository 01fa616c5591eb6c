"""Where a director starts: ``{% your_events %}`` on the home page, their events (run, set up) and a new one."""

from django import template

from .. import console, event_form

register = template.Library()


@register.inclusion_tag("tournaments/console/_your_events.html", takes_context=True)
def your_events(context):
    user = context["request"].user
    if not user.is_authenticated:
        return {"yours": [], "may_create": False}
    return {"yours": console.events_run_by(user), "may_create": event_form.may_create_some_event(user)}
