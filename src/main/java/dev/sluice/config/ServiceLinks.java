package dev.sluice.config;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes sets {@code REDIS_PORT=tcp://10.0.0.7:6379} in every pod of a namespace with a
 * Service named {@code redis} ("service links"). LiteLLM's fallback reads {@code REDIS_PORT}
 * as a bare port; so that such a pod still starts, the port is taken from that URL form.
 */
final class ServiceLinks {
    private static final Pattern SERVICE_LINK = Pattern.compile("tcp://[^:/]+:(\\d+)");

    private ServiceLinks() {}

    static Map<String, String> normalise(Map<String, String> env) {
        String port = env.get(FallbackVariables.REDIS_PORT);
        if (port == null) {
            return env;
        }
        Matcher link = SERVICE_LINK.matcher(port.strip());
        if (!link.matches()) {
            return env;
        }
        Map<String, String> copy = new HashMap<>(env);
        copy.put(FallbackVariables.REDIS_PORT, link.group(1));
        return copy;
    }
}
