// The clock-code probe: for the screen track's sync test only (DUO_TEST_CLOCK_CODE); nothing in an
// ordinary run attaches it.
//
// Why C: as the frame-code probe, it maps each frame with GstVideoFrame's plane macros on the streaming
// thread, once per buffer, without a Swift closure or an actor hop.
#ifndef DUO_CLOCK_CODE_H
#define DUO_CLOCK_CODE_H

#include <gst/gst.h>

/// Tests only (DUO_TEST_CLOCK_CODE): stamps into the top-left 768x32 pixels of each frame on `pad` (24
/// luma blocks of 32x32, bit 0 leftmost, white = 1) the time the frame stands for, as CLOCK_MONOTONIC
/// milliseconds modulo 2^24: its timestamp (running time) plus the element's base time, carried from the
/// pipeline clock over to the monotonic clock. A window drawing the monotonic clock in the same code on
/// the recorded monitor (Tests/DuoDesktopTests/Fixtures/screen_clock.py) then shows, in the screen
/// track, the same time the camera track shows at the same file time, if both tracks share one clock.
void duo_attach_clock_code(GstPad *pad);

#endif
