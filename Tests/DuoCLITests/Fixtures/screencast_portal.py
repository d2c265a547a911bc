#!/usr/bin/python3
"""A stand-in for the desktop's ScreenCast portal (org.freedesktop.portal.ScreenCast) on a private session
bus, for the tests of `--screen` on Wayland (ScreenCastPortalTests).

Why a stand-in: on Debian 12 the real stack (xdg-desktop-portal 1.16 with xdg-desktop-portal-wlr 0.7.0 on a
headless sway) answers CreateSession and SelectSources, then fails every Start with "wlroots: unable to
receive a valid format from wlr_screencopy": with the pixman renderer (no /dev/dri on a CI machine) sway
sends no DMA-BUF format, and xdpw 0.7 requires one when screencopy is version 3 (upstream issue
emersion/xdg-desktop-portal-wlr#289). This service speaks the portal's D-Bus protocol as
xdg-desktop-portal does (request objects, Response signals, a PipeWire connection passed as a file
descriptor), and shares a real PipeWire node: the one called NODE_NAME (a test picture published by the
test), at WIDTHxHEIGHT.

Usage: screencast_portal.py NODE_NAME WIDTH HEIGHT [cancel]
  cancel: Start answers 1 (the user closed the dialog).
Prints "ready" once it owns org.freedesktop.portal.Desktop; logs each call to stdout.
"""
import os
import socket
import subprocess
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

NODE_NAME, WIDTH, HEIGHT = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
CANCEL = len(sys.argv) > 4 and sys.argv[4] == "cancel"

XML = """
<node>
  <interface name="org.freedesktop.portal.ScreenCast">
    <method name="CreateSession"><arg type="a{sv}" direction="in"/><arg type="o" direction="out"/></method>
    <method name="SelectSources"><arg type="o" direction="in"/><arg type="a{sv}" direction="in"/><arg type="o" direction="out"/></method>
    <method name="Start"><arg type="o" direction="in"/><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/><arg type="o" direction="out"/></method>
    <method name="OpenPipeWireRemote"><arg type="o" direction="in"/><arg type="a{sv}" direction="in"/><arg type="h" direction="out"/></method>
    <property name="AvailableSourceTypes" type="u" access="read"/>
    <property name="AvailableCursorModes" type="u" access="read"/>
    <property name="version" type="u" access="read"/>
  </interface>
</node>
"""


def log(*words):
    print(*words, flush=True)


def node_id(name):
    """The PipeWire node id of the node called `name` (pw-cli ls Node)."""
    current = None
    for line in subprocess.run(["pw-cli", "ls", "Node"], capture_output=True, text=True).stdout.splitlines():
        line = line.strip()
        if line.startswith("id "):
            current = int(line.split()[1].rstrip(","))
        elif line == 'node.name = "%s"' % name:
            return current
    raise SystemExit("no PipeWire node called %s" % name)


def request_path(sender, options):
    token = options["handle_token"]
    return "/org/freedesktop/portal/desktop/request/%s/%s" % (sender[1:].replace(".", "_"), token)


def respond(connection, sender, path, code, results):
    def emit():
        connection.emit_signal(sender, path, "org.freedesktop.portal.Request", "Response",
                               GLib.Variant("(ua{sv})", (code, results)))
        return False
    GLib.idle_add(emit)


def method_call(connection, sender, object_path, interface, method, parameters, invocation):
    args = parameters.unpack()
    log("call", method)
    if method == "CreateSession":
        options = args[0]
        path = request_path(sender, options)
        session = "/org/freedesktop/portal/desktop/session/%s/%s" % (sender[1:].replace(".", "_"), options["session_handle_token"])
        invocation.return_value(GLib.Variant("(o)", (path,)))
        respond(connection, sender, path, 0, {"session_handle": GLib.Variant("s", session)})
    elif method == "SelectSources":
        log("select", "types=%s" % args[1].get("types"), "multiple=%s" % args[1].get("multiple"),
            "cursor_mode=%s" % args[1].get("cursor_mode"))
        path = request_path(sender, args[1])
        invocation.return_value(GLib.Variant("(o)", (path,)))
        respond(connection, sender, path, 0, {})
    elif method == "Start":
        path = request_path(sender, args[2])
        invocation.return_value(GLib.Variant("(o)", (path,)))
        if CANCEL:
            respond(connection, sender, path, 1, {})
            return
        node = node_id(NODE_NAME)
        log("node", node)
        stream = (node, {"position": GLib.Variant("(ii)", (0, 0)), "size": GLib.Variant("(ii)", (WIDTH, HEIGHT)),
                         "source_type": GLib.Variant("u", 1)})
        respond(connection, sender, path, 0, {"streams": GLib.Variant("a(ua{sv})", [stream])})
    elif method == "OpenPipeWireRemote":
        # As xdg-desktop-portal does: a new connection to the PipeWire daemon, handed over as a descriptor.
        runtime = os.environ.get("PIPEWIRE_RUNTIME_DIR") or os.environ["XDG_RUNTIME_DIR"]
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(os.path.join(runtime, "pipewire-0"))
        fds = Gio.UnixFDList.new_from_array([s.detach()])
        invocation.return_value_with_unix_fd_list(GLib.Variant("(h)", (0,)), fds)
    else:
        invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)


def get_property(connection, sender, object_path, interface, name):
    return GLib.Variant("u", {"AvailableSourceTypes": 1, "AvailableCursorModes": 3, "version": 4}[name])


def main():
    bus = Gio.bus_get_sync(Gio.BusType.SESSION)
    info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
    bus.register_object("/org/freedesktop/portal/desktop", info, method_call, get_property, None)
    loop = GLib.MainLoop()

    def acquired(*_):
        log("ready")

    def lost(*_):
        log("could not own org.freedesktop.portal.Desktop")
        loop.quit()
    Gio.bus_own_name_on_connection(bus, "org.freedesktop.portal.Desktop", Gio.BusNameOwnerFlags.NONE, acquired, lost)
    loop.run()


main()
