package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.admin.AccountCalls.Access;
import dev.sluice.config.RouterSettingOverrides;
import dev.sluice.config.RouterSettingOverrides.Refusal;
import dev.sluice.config.RouterSettings;
import dev.sluice.config.RouterSettingsJson;
import dev.sluice.router.LiveRouterSettings;
import dev.sluice.router.ModelRegistry;
import dev.sluice.state.sync.StoredRouterSettingsSync;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.time.Clock;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reading and changing the router settings while the gateway runs:
 * {@code GET /router/settings} answers every effective setting with its value and source
 * ({@code config file}, {@code database}, {@code default}, or {@code environment} for a
 * {@code REDIS_*} variable); {@code POST /router/settings/update} takes
 * {@code {"num_retries": 0, "fallbacks": [{"a": ["b"]}], "timeout": null, ...}}, checks every
 * value by the config file's rules, stores the change and serves it from the next request on,
 * on every replica sharing the store within {@link StoredRouterSettingsSync#DEFAULT_INTERVAL}.
 * {@code null} drops a stored value, so the file's value (or the default) applies again. A
 * change with any bad field is refused whole. Master key only.
 */
public final class RouterSettingsHandlers {
    private static final Logger log = LoggerFactory.getLogger(RouterSettingsHandlers.class);

    private final AccountCalls calls;
    private final StoredRouterSettingsSync sync;
    private final LiveRouterSettings settings;
    private final ModelRegistry models;
    private final Clock clock;

    public RouterSettingsHandlers(Vertx vertx, AccountApi api, StoredRouterSettingsSync sync, ModelRegistry models) {
        this.calls = new AccountCalls(vertx, api, "router settings");
        this.sync = sync;
        this.settings = sync.settings();
        this.models = models;
        this.clock = api.clock();
    }

    /** {@code GET /router/settings}. */
    public void get(HttpServerRequest request) {
        calls.answer(request, "/router/settings", Access.MASTER_KEY, call -> describe(settings.current()));
    }

    /** {@code POST /router/settings/update}. */
    public void update(HttpServerRequest request) {
        calls.answer(request, "/router/settings/update", Access.MASTER_KEY, call -> {
            RouterSettingOverrides.Change change = read(call.body());
            sync.change(change, clock.instant());
            log.info("router_settings.updated set={} reset={}", change.set(), change.reset());
            ObjectNode body = describe(settings.current());
            body.put("message", "Router settings changed: served from the next request on, and by every replica sharing "
                    + "the store within seconds.");
            ArrayNode updated = body.putArray("updated");
            change.set().keySet().forEach(updated::add);
            ArrayNode reset = body.putArray("reset");
            change.reset().forEach(reset::add);
            return body;
        });
    }

    private RouterSettingOverrides.Change read(ObjectNode body) {
        if (body.isEmpty()) {
            throw ApiError.invalidRequest("Name at least one setting to change, e.g. {\"num_retries\": 1}; settings that change "
                    + "at run time: " + String.join(", ", RouterSettingOverrides.NAMES) + ".", null, "missing_settings");
        }
        Set<String> known = new HashSet<>(settings.file().sources().keySet());
        Set<String> groups = new HashSet<>(models.current().names());
        try {
            return RouterSettingOverrides.readChange(body, known, groups);
        } catch (RouterSettingOverrides.InvalidChange e) {
            Refusal first = e.refusals().getFirst();
            String code = switch (first.kind()) {
                case UNKNOWN -> "unknown_setting";
                case NOT_UPDATABLE -> "setting_not_updatable";
                case INVALID -> "invalid_value";
            };
            throw ApiError.invalidRequest("Router settings not changed: " + e.getMessage() + ".", first.name(), code);
        }
    }

    /**
     * Every setting as {@code {"value", "source", "config_key"?, "updatable", "reset_to"?}}, and
     * LiteLLM's {@code current_values} (name to value) beside them.
     */
    private ObjectNode describe(RouterSettings current) {
        RouterSettings file = settings.file();
        Map<String, JsonNode> values = RouterSettingsJson.values(current);
        Map<String, JsonNode> fileValues = RouterSettingsJson.values(file);
        ObjectNode body = Json.MAPPER.createObjectNode();
        ObjectNode described = body.putObject("settings");
        ObjectNode flat = body.putObject("current_values");
        values.forEach((name, value) -> {
            ObjectNode setting = described.putObject(name);
            setting.set("value", value);
            String source = RouterSettingsJson.source(current, name);
            setting.put("source", source);
            RouterSettingsJson.configKey(current, name).ifPresent(key -> setting.put("config_key", key));
            setting.put("updatable", RouterSettingOverrides.NAMES.contains(name));
            if (source.equals(RouterSettingsJson.DATABASE)) {
                // What a null would bring back.
                ObjectNode resetTo = setting.putObject("reset_to");
                resetTo.set("value", fileValues.get(name));
                resetTo.put("source", RouterSettingsJson.source(file, name));
            }
            flat.set(name, value);
        });
        return body;
    }
}
