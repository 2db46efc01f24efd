package dev.sluice.call;

/**
 * A deployment's {@code api_base} as {@code x-litellm-model-api-base} shows it: scheme, host,
 * port and path only. A query string can carry a key (Azure's and Gemini's {@code ?key=}),
 * and user info ({@code https://user:pass@host}) is a credential, so both go, as does a
 * fragment. LiteLLM drops the query string only; Sluice drops user info too.
 */
public final class ShownApiBase {
    private ShownApiBase() {}

    public static String of(String apiBase) {
        int end = apiBase.length();
        int query = apiBase.indexOf('?');
        if (query >= 0) {
            end = query;
        }
        int fragment = apiBase.indexOf('#');
        if (fragment >= 0 && fragment < end) {
            end = fragment;
        }
        String base = apiBase.substring(0, end);
        int scheme = base.indexOf("://");
        int hostStart = scheme < 0 ? 0 : scheme + 3;
        int pathStart = base.indexOf('/', hostStart);
        int authorityEnd = pathStart < 0 ? base.length() : pathStart;
        int userInfo = base.lastIndexOf('@', authorityEnd - 1);
        if (userInfo >= hostStart) {
            return base.substring(0, hostStart) + base.substring(userInfo + 1);
        }
        return base;
    }
}
