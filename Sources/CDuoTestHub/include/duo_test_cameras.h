// The test camera provider (duo_test_cameras.c): tests only.
//
// Why C: a GstDeviceProvider and its GstDevice are GObject subclasses, defined with G_DEFINE_TYPE and
// class_init vtables that Swift cannot write.
#ifndef DUO_TEST_CAMERAS_H
#define DUO_TEST_CAMERAS_H

#include <gst/gst.h>

/// Registers the test camera provider (duo_test_cameras.c) over `folder`: its `.camera` files are
/// Video/Source devices a GstDeviceMonitor lists and reports added and removed. Tests only (duo-capture
/// calls it when DUO_TEST_CAMERAS names a folder).
gboolean duo_register_test_cameras(const char *folder);

#endif
