// CDuoTestHub: the test hub's C parts, linked only into duo-capture-testhub (tests, QA timelines and
// benchmarks), never into the duo-capture users install.
//   duo_test_cameras.h  a GstDeviceProvider whose cameras are files in a folder (DUO_TEST_CAMERAS)
//   duo_frame_code.h    a frame number stamped into each remote view and read back (DUO_BENCH_FRAME_CODE)
//   duo_clock_code.h    each camera frame's time stamped into its pixels (DUO_TEST_CLOCK_CODE)
#ifndef DUO_TEST_HUB_H
#define DUO_TEST_HUB_H
#include "duo_test_cameras.h"
#include "duo_frame_code.h"
#include "duo_clock_code.h"
#endif
