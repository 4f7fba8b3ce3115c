"""Runs os-ken's simple_switch_13 application, for tests/interop-osken.at.

usage: osken-run.py [os-ken options, e.g. --ofp-tcp-listen-port N]

os-ken 1.4.1 is the last release that ships simple_switch_13.  Its
`osken-manager` imports a name (eventlet.wsgi.ALREADY_HANDLED) that current
eventlet no longer has, so this starts the application through os-ken's
application manager directly, after giving eventlet that name back.
"""
import sys

import eventlet.wsgi

if not hasattr(eventlet.wsgi, "ALREADY_HANDLED"):
    eventlet.wsgi.ALREADY_HANDLED = object()

from os_ken.lib import hub  # noqa: E402

hub.patch(thread=False)

from os_ken import cfg  # noqa: E402
from os_ken.base.app_manager import AppManager  # noqa: E402

cfg.CONF(args=sys.argv[1:], project="os_ken")
manager = AppManager.get_instance()
manager.load_apps(["os_ken.app.simple_switch_13",
                   "os_ken.controller.ofp_handler"])
services = manager.instantiate_apps(**manager.create_contexts())
hub.joinall(services)
