#include <gtk/gtk.h>

/* gtk_file_chooser_dialog_new is variadic, which Swift cannot call: a dialog that opens one script
 * (.md, .markdown, .txt), transient for `parent`. */
static inline GtkWidget *duo_script_chooser_new(GtkWindow *parent) {
    GtkWidget *dialog = gtk_file_chooser_dialog_new("Open a script", parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                                    "_Cancel", GTK_RESPONSE_CANCEL, "_Open", GTK_RESPONSE_ACCEPT, NULL);
    GtkFileFilter *scripts = gtk_file_filter_new();
    gtk_file_filter_set_name(scripts, "Scripts (.md, .txt)");
    gtk_file_filter_add_pattern(scripts, "*.md");
    gtk_file_filter_add_pattern(scripts, "*.markdown");
    gtk_file_filter_add_pattern(scripts, "*.txt");
    gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(dialog), scripts);
    gtk_dialog_set_default_response(GTK_DIALOG(dialog), GTK_RESPONSE_ACCEPT);
    return dialog;
}
