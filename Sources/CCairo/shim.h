// Cairo and Pango headers for DuoRender. Only DuoRender's adapter files import CCairo.
#ifndef DUO_CCAIRO_SHIM_H
#define DUO_CCAIRO_SHIM_H
#include <cairo.h>
#include <pango/pangocairo.h>
#endif
