package dev.sluice.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The warnings about deployments whose credentials or endpoint name environment variables
 * that are not set: one line per deployment, for the start-up log and {@code check-config}.
 * Such a deployment is served like any other (listed, routed to), but each call to it fails
 * naming the variables, so the warning is the operator's first notice of it.
 */
public final class UnsetVariableWarnings {
    private UnsetVariableWarnings() {}

    /** One line per deployment of {@code config} that names an unset variable, in file order. */
    public static List<String> of(SluiceConfig config) {
        List<String> lines = new ArrayList<>();
        List<Deployment> deployments = config.deployments();
        for (int i = 0; i < deployments.size(); i++) {
            Deployment d = deployments.get(i);
            List<String> unset = d.params().endpoint().unsetVariables();
            if (!unset.isEmpty()) {
                lines.add("model_list[" + config.fileIndex(i) + "] (model_name " + d.modelName() + ", id " + d.id()
                        + "): environment variable" + (unset.size() == 1 ? " " : "s ") + String.join(", ", unset)
                        + (unset.size() == 1 ? " is" : " are") + " not set; the deployment is listed, but every call to it"
                        + " fails until " + (unset.size() == 1 ? "it is" : "they are") + " set and Sluice restarts");
            }
        }
        return lines;
    }
}
