#include <gtk/gtk.h>

/* gtk_file_chooser_dialog_new is variadic, which Swift cannot call: a dialog that opens one script
 * (.md, .markdown, .txt), transient for `parent`; its words (translated by the caller) as given. */
static inline GtkWidget *duo_script_chooser_new(GtkWindow *parent, const char *title, const char *cancel,
                                                const char *open, const char *filter) {
    GtkWidget *dialog = gtk_file_chooser_dialog_new(title, parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                                    cancel, GTK_RESPONSE_CANCEL, open, GTK_RESPONSE_ACCEPT, NULL);
    GtkFileFilter *scripts = gtk_file_filter_new();
    gtk_file_filter_set_name(scripts, filter);
    gtk_file_filter_add_pattern(scripts, "*.md");
    gtk_file_filter_add_pattern(scripts, "*.markdown");
    gtk_file_filter_add_pattern(scripts, "*.txt");
    gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(dialog), scripts);
    gtk_dialog_set_default_response(GTK_DIALOG(dialog), GTK_RESPONSE_ACCEPT);
    return dialog;
}
