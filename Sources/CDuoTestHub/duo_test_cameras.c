// The test camera provider: a GstDeviceProvider whose Video/Source devices are files in a folder, so
// tests (and a QA engineer's timeline) exercise the same GstDeviceMonitor path real cameras take: listing
// with identity, device-added and device-removed, re-attach by identity.
//
// A device is a file `NAME.camera` of `key=value` lines:
//   name=Duo Test Camera B            (display name)
//   serial=DUO-TEST-B                 (device.serial: the identity)
//   caps=video/x-raw,format=YUY2,width=1920,height=1080,framerate=60/1; ...
//   pattern=ball                      (the videotestsrc pattern its element shows)
// Adding the file plugs the camera in; removing (or renaming away from `.camera`) pulls it out. A file
// plugged back under another name is the same camera at another path, as a USB camera re-plugged into
// another port gets another /dev/videoN.
//
// Thread: the provider polls its folder on a thread of its own while started; devices are added and
// removed from that thread (GstDeviceProvider posts them on its bus, which the monitor forwards).
#include <string.h>
#include <gst/gst.h>

// MARK: The device

typedef struct {
    GstDevice parent;
    gchar *pattern;
} DuoTestCamera;
typedef struct { GstDeviceClass parent_class; } DuoTestCameraClass;

static GType duo_test_camera_get_type(void);
G_DEFINE_TYPE(DuoTestCamera, duo_test_camera, GST_TYPE_DEVICE)

static GstElement *duo_test_camera_create_element(GstDevice *device, const gchar *name) {
    DuoTestCamera *self = (DuoTestCamera *)device;
    GstElement *src = gst_element_factory_make("videotestsrc", name);
    if (!src) return NULL;
    g_object_set(src, "is-live", TRUE, NULL);
    if (self->pattern) gst_util_set_object_arg(G_OBJECT(src), "pattern", self->pattern);
    return src;
}

static void duo_test_camera_finalize(GObject *object) {
    g_free(((DuoTestCamera *)object)->pattern);
    G_OBJECT_CLASS(duo_test_camera_parent_class)->finalize(object);
}

static void duo_test_camera_class_init(DuoTestCameraClass *klass) {
    GST_DEVICE_CLASS(klass)->create_element = duo_test_camera_create_element;
    G_OBJECT_CLASS(klass)->finalize = duo_test_camera_finalize;
}

static void duo_test_camera_init(DuoTestCamera *self) { (void)self; }

/// A device from one `.camera` file, or NULL when the file is not a complete description.
static GstDevice *duo_test_camera_from_file(const gchar *path) {
    gchar *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL)) return NULL;
    gchar *name = NULL, *serial = NULL, *caps_text = NULL, *pattern = NULL;
    gchar **lines = g_strsplit(text, "\n", -1);
    for (gchar **line = lines; *line; line++) {
        gchar *eq = strchr(*line, '=');
        if (!eq) continue;
        *eq = '\0';
        gchar *key = g_strstrip(*line), *value = g_strstrip(eq + 1);
        if (!strcmp(key, "name")) { g_free(name); name = g_strdup(value); }
        else if (!strcmp(key, "serial")) { g_free(serial); serial = g_strdup(value); }
        else if (!strcmp(key, "caps")) { g_free(caps_text); caps_text = g_strdup(value); }
        else if (!strcmp(key, "pattern")) { g_free(pattern); pattern = g_strdup(value); }
    }
    g_strfreev(lines);
    g_free(text);
    GstDevice *device = NULL;
    GstCaps *caps = caps_text ? gst_caps_from_string(caps_text) : NULL;
    if (name && caps && !gst_caps_is_empty(caps)) {
        GstStructure *props = gst_structure_new("duo-test-camera",
            "device.api", G_TYPE_STRING, "duotest",
            "device.path", G_TYPE_STRING, path, NULL);
        if (serial && *serial) gst_structure_set(props, "device.serial", G_TYPE_STRING, serial, NULL);
        if (pattern && *pattern) gst_structure_set(props, "duotest.pattern", G_TYPE_STRING, pattern, NULL);
        DuoTestCamera *camera = g_object_new(duo_test_camera_get_type(), "display-name", name, "caps", caps,
                                             "device-class", "Video/Source", "properties", props, NULL);
        camera->pattern = g_strdup(pattern);
        gst_structure_free(props);
        device = GST_DEVICE(camera);
    }
    if (caps) gst_caps_unref(caps);
    g_free(name); g_free(serial); g_free(caps_text); g_free(pattern);
    return device;
}

// MARK: The provider

typedef struct {
    GstDeviceProvider parent;
    GThread *thread;
    gint running;
    /// File path → the device it plugged in (owned by the poll thread while started).
    GHashTable *plugged;
} DuoTestCameraProvider;
typedef struct { GstDeviceProviderClass parent_class; } DuoTestCameraProviderClass;

static GType duo_test_camera_provider_get_type(void);
G_DEFINE_TYPE(DuoTestCameraProvider, duo_test_camera_provider, GST_TYPE_DEVICE_PROVIDER)

static gchar *duo_test_cameras_folder = NULL;

/// The `.camera` files in the folder now, sorted (so devices are listed in a stable order).
static GList *duo_test_camera_files(void) {
    GList *files = NULL;
    GDir *dir = duo_test_cameras_folder ? g_dir_open(duo_test_cameras_folder, 0, NULL) : NULL;
    if (!dir) return NULL;
    const gchar *entry;
    while ((entry = g_dir_read_name(dir)))
        if (g_str_has_suffix(entry, ".camera")) files = g_list_prepend(files, g_build_filename(duo_test_cameras_folder, entry, NULL));
    g_dir_close(dir);
    return g_list_sort(files, (GCompareFunc)strcmp);
}

static GList *duo_test_camera_provider_probe(GstDeviceProvider *provider) {
    (void)provider;
    GList *devices = NULL, *files = duo_test_camera_files();
    for (GList *f = files; f; f = f->next) {
        GstDevice *device = duo_test_camera_from_file(f->data);
        if (device) devices = g_list_append(devices, gst_object_ref_sink(device));
    }
    g_list_free_full(files, g_free);
    return devices;
}

/// One look at the folder: files that appeared are plugged in, files that went are pulled out.
static void duo_test_camera_provider_scan(DuoTestCameraProvider *self) {
    GstDeviceProvider *provider = GST_DEVICE_PROVIDER(self);
    GList *files = duo_test_camera_files();
    GHashTable *present = g_hash_table_new(g_str_hash, g_str_equal);
    for (GList *f = files; f; f = f->next) g_hash_table_add(present, f->data);
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init(&it, self->plugged);
    while (g_hash_table_iter_next(&it, &key, &value)) {
        if (g_hash_table_contains(present, key)) continue;
        gst_device_provider_device_remove(provider, GST_DEVICE(value));
        g_hash_table_iter_remove(&it);
    }
    for (GList *f = files; f; f = f->next) {
        if (g_hash_table_contains(self->plugged, f->data)) continue;
        GstDevice *device = duo_test_camera_from_file(f->data);
        if (!device) continue;   // still being written: tried again on the next look
        g_hash_table_insert(self->plugged, g_strdup(f->data), gst_object_ref(device));
        gst_device_provider_device_add(provider, device);
    }
    g_hash_table_destroy(present);
    g_list_free_full(files, g_free);
}

static gpointer duo_test_camera_provider_poll(gpointer data) {
    DuoTestCameraProvider *self = data;
    while (g_atomic_int_get(&self->running)) {
        g_usleep(20 * 1000);
        duo_test_camera_provider_scan(self);
    }
    return NULL;
}

static gboolean duo_test_camera_provider_start(GstDeviceProvider *provider) {
    DuoTestCameraProvider *self = (DuoTestCameraProvider *)provider;
    self->plugged = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, gst_object_unref);
    duo_test_camera_provider_scan(self);   // the devices present at start are there when start returns
    g_atomic_int_set(&self->running, 1);
    self->thread = g_thread_new("duo-test-cameras", duo_test_camera_provider_poll, self);
    return TRUE;
}

static void duo_test_camera_provider_stop(GstDeviceProvider *provider) {
    DuoTestCameraProvider *self = (DuoTestCameraProvider *)provider;
    g_atomic_int_set(&self->running, 0);
    if (self->thread) g_thread_join(self->thread);
    self->thread = NULL;
    g_clear_pointer(&self->plugged, g_hash_table_destroy);
}

static void duo_test_camera_provider_class_init(DuoTestCameraProviderClass *klass) {
    GstDeviceProviderClass *dp = GST_DEVICE_PROVIDER_CLASS(klass);
    dp->probe = duo_test_camera_provider_probe;
    dp->start = duo_test_camera_provider_start;
    dp->stop = duo_test_camera_provider_stop;
    gst_device_provider_class_set_static_metadata(dp, "duo-capture test cameras", "Source/Video",
        "Simulated cameras that are plugged in and pulled out through files in a folder", "duo-capture");
}

static void duo_test_camera_provider_init(DuoTestCameraProvider *self) { (void)self; }

gboolean duo_register_test_cameras(const char *folder) {
    if (duo_test_cameras_folder) return TRUE;
    duo_test_cameras_folder = g_strdup(folder);
    return gst_device_provider_register(NULL, "duotestcameras", GST_RANK_PRIMARY, duo_test_camera_provider_get_type());
}
