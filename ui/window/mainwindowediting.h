#pragma once

class EditingController;
class MainWindow;

// Gives Partwise's main window its editing half through the window's public API: the Edit menu,
// the context menus of the map and the list, the pending-operations dock, and the preview of
// the queue on the map and in the list. Call once, at the end of MainWindow's constructor.
EditingController *installEditing(MainWindow *window);
