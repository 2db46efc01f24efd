package dev.sluice.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The HTTP paths a health check written as a shell command asks for. */
final class ProbePaths {
    private static final Pattern REQUEST_LINE = Pattern.compile("GET (/\\S*) HTTP/1\\.[01]");

    private ProbePaths() {}

    static List<String> requested(String command) {
        List<String> paths = new ArrayList<>();
        Matcher request = REQUEST_LINE.matcher(command);
        while (request.find()) {
            paths.add(request.group(1));
        }
        return paths;
    }
}
