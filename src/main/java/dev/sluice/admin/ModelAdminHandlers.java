package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.admin.AccountCalls.Access;
import dev.sluice.config.Deployment;
import dev.sluice.net.ApiBaseRules;
import dev.sluice.router.ModelRegistry;
import dev.sluice.state.sync.ModelEntries;
import dev.sluice.state.sync.StoredModelSync;
import dev.sluice.store.StoreException;
import dev.sluice.store.StoredModel;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Managing deployments while the gateway runs, with LiteLLM's routes and bodies:
 * {@code POST /model/new} (a {@code model_list} entry), {@code POST /model/update} (the
 * entry's changed fields and {@code model_info.id}) and {@code POST /model/delete}
 * ({@code {"id": ...}}). Entries are checked by the same rules as the config file and stored;
 * this replica serves a change from its next request, every other replica sharing the store
 * within {@link StoredModelSync#DEFAULT_INTERVAL}, and a restarted one from its first.
 * Deployments of the config file cannot be changed or deleted here: the file is their source.
 * Master key only.
 *
 * <p>What an entry given here may reach is narrower than the file's: it may name only the
 * variables {@code general_settings.admin_allowed_env_vars} lists ({@link ModelEntries}), and
 * its {@code api_base} must pass {@link ApiBaseRules} (no metadata, link-local or unspecified
 * address, not this gateway's own port, http or https without user info). It draws on no
 * credential of the gateway's it is not lent ({@code admin_allowed_credentials}), and a change of
 * where a stored one's calls go must bring its credentials again ({@link EndpointChange}).
 */
public final class ModelAdminHandlers {
    private static final Logger log = LoggerFactory.getLogger(ModelAdminHandlers.class);
    private static final String API_BASE = "litellm_params.api_base";
    private static final String BEDROCK_ENDPOINT = "litellm_params.aws_bedrock_runtime_endpoint";

    private final AccountCalls calls;
    private final StoredModelSync models;
    private final ModelRegistry registry;
    private final java.time.Clock clock;

    private final ApiBaseRules apiBases;

    public ModelAdminHandlers(Vertx vertx, AccountApi api, StoredModelSync models, ApiBaseRules apiBases) {
        this.calls = new AccountCalls(vertx, api, "models");
        this.apiBases = apiBases;
        this.clock = api.clock();
        this.models = models;
        this.registry = models.registry();
    }

    /** {@code POST /model/new}. */
    public void add(HttpServerRequest request) {
        calls.answer(request, "/model/new", Access.MASTER_KEY, call -> {
            ModelEntries.Parsed parsed = parse(call.body(), Map.of());
            Deployment deployment = parsed.deployment();
            ObjectNode entry = call.body().deepCopy();
            // Stored with its id, so every replica, and every later change, serves it under the same one.
            ObjectNode info = entry.get("model_info") instanceof ObjectNode given ? given : entry.putObject("model_info");
            info.put("id", deployment.id());
            Instant now = clock.instant();
            models.change(() -> {
                registry.find(deployment.id()).ifPresent(served -> {
                    throw duplicate(deployment.id(), served);
                });
                try {
                    models.store().insert(new StoredModel(deployment.id(), deployment.modelName(), entry.toString(), now, now));
                } catch (StoreException e) {
                    if (e.reason() == StoreException.Reason.CONFLICT) {
                        throw duplicate(deployment.id(), null);
                    }
                    throw e;
                }
                registry.add(deployment);
                return null;
            });
            log.info("models.deployment_added group={} deployment={} provider={}", deployment.modelName(), deployment.id(),
                    deployment.params().provider());
            ObjectNode body = answer(deployment, "Model '" + deployment.modelName() + "' (deployment '" + deployment.id()
                    + "') is served from the next request on, and by every replica sharing the store within seconds.");
            return withIgnoredKeys(body, parsed);
        });
    }

    /** {@code POST /model/update}: the stored entry with the given fields over it; {@code null} removes a field. */
    public void update(HttpServerRequest request) {
        calls.answer(request, "/model/update", Access.MASTER_KEY, call -> {
            String id = idOf(call.body().path("model_info").path("id"), "model_info.id");
            // A new api_base (or Bedrock endpoint) is looked up before the store is locked, so a slow
            // resolver holds up no sync round.
            Map<String, Optional<String>> checked = new HashMap<>();
            for (String field : List.of("api_base", "aws_bedrock_runtime_endpoint")) {
                JsonNode url = call.body().path("litellm_params").path(field);
                if (written(url)) {
                    checked.put(url.textValue(), apiBases.refusal(url.textValue()));
                }
            }
            ModelEntries.Parsed parsed = models.change(() -> {
                StoredModel stored = stored(id);
                ObjectNode held = readEntry(stored);
                EndpointChange.refusal(held, call.body()).ifPresent(refusal -> {
                    throw refusal;
                });
                ObjectNode entry = merged(held, call.body());
                ((ObjectNode) entry.get("model_info")).put("id", id);
                ModelEntries.Parsed read = parse(entry, checked);
                Deployment changed = read.deployment();
                if (!models.store().update(new StoredModel(id, changed.modelName(), entry.toString(), stored.createdAt(),
                        clock.instant()))) {
                    throw notFound(id);
                }
                if (registry.find(id).isPresent()) {
                    registry.replace(changed);
                } else {
                    registry.add(changed);
                }
                return read;
            });
            Deployment deployment = parsed.deployment();
            log.info("models.deployment_updated group={} deployment={}", deployment.modelName(), deployment.id());
            return withIgnoredKeys(answer(deployment, "Deployment '" + id + "' is served as changed from the next request on, "
                    + "and by every replica sharing the store within seconds."), parsed);
        });
    }

    /** {@code POST /model/delete} with {@code {"id": ...}}. */
    public void delete(HttpServerRequest request) {
        calls.answer(request, "/model/delete", Access.MASTER_KEY, call -> {
            String id = idOf(call.body().path("id"), "id");
            models.change(() -> {
                configuredCannotChange(id);
                if (!models.store().delete(id)) {
                    throw notFound(id);
                }
                registry.remove(id);
                return null;
            });
            log.info("models.deployment_deleted deployment={}", id);
            return Json.MAPPER.createObjectNode().put("model_id", id).put("message", "Deployment '" + id
                    + "' is no longer served from the next request on, nor by any replica sharing the store within seconds.");
        });
    }

    private StoredModel stored(String id) {
        configuredCannotChange(id);
        return models.store().findById(id).orElseThrow(() -> notFound(id));
    }

    private void configuredCannotChange(String id) {
        if (registry.isConfigured(id)) {
            throw ApiError.invalidRequest("Deployment '" + id + "' comes from the config file; change it there and restart.",
                    "id", "config_model");
        }
    }

    /**
     * The entry read as a deployment, its {@code api_base} checked. A written URL is checked
     * before it is read, and its refusal replaces what reading says about it, so the answer
     * never repeats it (it may hold a password); one taken from an allowed variable is checked
     * once resolved.
     */
    private ModelEntries.Parsed parse(JsonNode entry, Map<String, Optional<String>> earlier) {
        JsonNode apiBase = entry.path("litellm_params").path("api_base");
        boolean checked = written(apiBase);
        Optional<String> refused = !checked ? Optional.empty() : refusal(apiBase.textValue(), earlier);
        ModelEntries.Parsed parsed;
        try {
            parsed = models.entries().parse(entry);
        } catch (ModelEntries.Invalid e) {
            if (refused.isPresent()) {
                List<String> others = e.problems().stream().filter(problem -> !problem.startsWith(API_BASE + ":")).toList();
                throw refusedUrl(API_BASE, refused.get(), others);
            }
            if (e.field() != null) {
                log.warn("models.entry_refused field={} code={}", e.field(), e.code());
            }
            throw ApiError.invalidRequest("The model is not valid: " + e.getMessage(), e.field(), e.code());
        }
        if (!checked) {
            refused = parsed.deployment().params().endpoint().apiBase().flatMap(apiBases::refusal);
        }
        if (refused.isPresent()) {
            throw refusedUrl(API_BASE, refused.get(), List.of());
        }
        // Bedrock's endpoint override is an api_base by another name, held to the same rules.
        Optional<String> endpointRefused = parsed.deployment().params().vendor().awsBedrockRuntimeEndpoint()
                .flatMap(url -> refusal(url, earlier));
        if (endpointRefused.isPresent()) {
            throw refusedUrl(BEDROCK_ENDPOINT, endpointRefused.get(), List.of());
        }
        return parsed;
    }

    /** Why {@code url} is refused, if it is: as already checked in this call ({@code earlier}), else looked up now. */
    private Optional<String> refusal(String url, Map<String, Optional<String>> earlier) {
        Optional<String> known = earlier.get(url);
        return known != null ? known : apiBases.refusal(url);
    }

    /** Whether a URL field is written out (checked before reading) rather than a variable (checked once resolved). */
    private static boolean written(JsonNode apiBase) {
        return apiBase.isTextual() && !apiBase.textValue().startsWith("os.environ/");
    }

    /** The refusal of a URL-valued {@code field} ({@code api_base} or Bedrock's endpoint), naming it and the entry's other problems. */
    private static ApiError refusedUrl(String field, String reason, List<String> otherProblems) {
        log.warn("models.entry_refused field={} code=api_base_not_allowed reason={}", field, reason);
        String others = otherProblems.isEmpty() ? "" : "; " + String.join("; ", otherProblems);
        return ApiError.invalidRequest("The model is not valid: " + field + " is refused: " + reason + others + ".", field,
                "api_base_not_allowed");
    }

    private static ObjectNode readEntry(StoredModel stored) {
        try {
            return (ObjectNode) Json.parse(stored.entry().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.io.IOException | ClassCastException e) {
            throw new IllegalStateException("the stored entry of '" + stored.modelId() + "' is not a JSON object", e);
        }
    }

    /** {@code entry} with {@code change}'s top-level fields over it, and its {@code litellm_params} and {@code model_info} merged field by field. */
    static ObjectNode merged(ObjectNode entry, ObjectNode change) {
        ObjectNode result = entry.deepCopy();
        for (Iterator<Map.Entry<String, JsonNode>> fields = change.properties().iterator(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            String name = field.getKey();
            JsonNode value = field.getValue();
            if ((name.equals("litellm_params") || name.equals("model_info")) && value instanceof ObjectNode changes
                    && result.get(name) instanceof ObjectNode held) {
                changes.properties().forEach(inner -> {
                    if (inner.getValue().isNull()) {
                        held.remove(inner.getKey());
                    } else {
                        held.set(inner.getKey(), inner.getValue());
                    }
                });
            } else if (value.isNull()) {
                result.remove(name);
            } else {
                result.set(name, value);
            }
        }
        if (!(result.get("model_info") instanceof ObjectNode)) {
            result.putObject("model_info");
        }
        return result;
    }

    private static String idOf(JsonNode value, String field) {
        if (!value.isTextual() || value.asText().isBlank()) {
            throw ApiError.invalidRequest("Name the deployment in " + field + " (a string).", field, "missing_id");
        }
        return value.asText();
    }

    private static ObjectNode answer(Deployment deployment, String message) {
        return Json.MAPPER.createObjectNode()
                .put("model_id", deployment.id())
                .put("model_name", deployment.modelName())
                .put("message", message);
    }

    /** The entry's keys Sluice read but does not act on, as the config file's start-up warning lists them. */
    private static ObjectNode withIgnoredKeys(ObjectNode body, ModelEntries.Parsed parsed) {
        body.putArray("ignored_keys").addAll(parsed.ignoredKeys().stream()
                .map(key -> Json.MAPPER.getNodeFactory().textNode(key)).toList());
        return body;
    }

    private static ApiError duplicate(String id, Deployment served) {
        return new ApiError(409, "invalid_request_error", "The model is not added: a deployment with id '" + id
                + "' is already served" + Optional.ofNullable(served).map(d -> " (model group '" + d.modelName() + "')").orElse("")
                + ".", "model_info.id", "duplicate_model_id");
    }

    private static ApiError notFound(String id) {
        return new ApiError(404, "invalid_request_error", "No deployment with id '" + id + "' was added through the model API.",
                "id", "model_not_found");
    }
}
