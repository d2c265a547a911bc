#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/app/app.h>
#include <gst/pbutils/pbutils.h>
