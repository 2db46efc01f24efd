package dev.sluice.admin.ui;

/** What answers under {@code /ui}: the UI's files and its session API. One per event loop. */
public record UiEndpoints(UiPages pages, SessionHandlers sessions) {}
