package dev.sluice.admin.ui.browser;

import java.net.URI;

/**
 * A request a test expects to fail, and so allows: its method (null for any), its path and
 * its status. The console line Chromium writes for it ("Failed to load resource: the server
 * responded with a status of 401") is allowed with it.
 */
record Expected(String method, String path, int status) {

    static Expected failure(String method, String path, int status) {
        return new Expected(method, path, status);
    }

    /** True for a failed response of this method, path and status. */
    boolean matchesResponse(String requestMethod, String url, int responseStatus) {
        return responseStatus == status && (method == null || method.equalsIgnoreCase(requestMethod)) && path.equals(pathOf(url));
    }

    /** True for Chromium's console line about this request's status. */
    boolean matchesConsole(String message) {
        int space = message.indexOf(' ');
        String url = space < 0 ? message : message.substring(0, space);
        return path.equals(pathOf(url)) && message.contains("status of " + status);
    }

    private static String pathOf(String url) {
        try {
            String path = URI.create(url).getPath();
            return path == null ? url : path;
        } catch (IllegalArgumentException e) {
            return url;
        }
    }

    @Override
    public String toString() {
        return (method == null ? "" : method + " ") + path + " " + status;
    }
}
