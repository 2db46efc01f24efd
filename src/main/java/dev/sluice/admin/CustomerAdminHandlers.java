package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.admin.AccountCalls.Access;
import dev.sluice.store.Customer;
import dev.sluice.store.Page;
import dev.sluice.store.StoreException;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import dev.sluice.wire.JsonFields;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * LiteLLM's customer (end user) API: {@code /customer/new}, {@code /customer/info},
 * {@code /customer/update}, {@code /customer/delete}, {@code /customer/list},
 * {@code /customer/block} and {@code /customer/unblock}, also served as {@code /end_user/*}.
 * Master key only. A customer is the {@code user} a call's body names: a blocked one is
 * refused, and its budget and limits hold across every key that calls for it.
 *
 * <p>{@code default_model} and {@code allowed_model_region} are kept and shown, not acted on;
 * {@code budget_id} (a shared LiteLLM budget table) is ignored: the budget is given inline.
 */
public final class CustomerAdminHandlers implements AccountHandlers {
    private static final Logger log = LoggerFactory.getLogger(CustomerAdminHandlers.class);
    /** What the customer API keeps without acting on it, in the customer's metadata. */
    private static final List<String> KEPT = List.of("default_model", "allowed_model_region");

    private final AccountApi api;
    private final AccountCalls calls;

    /** Create on the event loop whose requests it answers. */
    public CustomerAdminHandlers(Vertx vertx, AccountApi api) {
        this.api = api;
        this.calls = new AccountCalls(vertx, api, "customers");
    }

    public void create(HttpServerRequest request) {
        calls.answer(request, "/customer/new", Access.MASTER_KEY, this::created);
    }

    public void info(HttpServerRequest request) {
        calls.answer(request, "/customer/info", Access.MASTER_KEY, this::described);
    }

    public void update(HttpServerRequest request) {
        calls.answer(request, "/customer/update", Access.MASTER_KEY, this::updated);
    }

    public void delete(HttpServerRequest request) {
        calls.answer(request, "/customer/delete", Access.MASTER_KEY, this::deleted);
    }

    public void list(HttpServerRequest request) {
        calls.answer(request, "/customer/list", Access.MASTER_KEY, this::listed);
    }

    public void block(HttpServerRequest request) {
        calls.answer(request, "/customer/block", Access.MASTER_KEY, call -> blocked(call, true));
    }

    public void unblock(HttpServerRequest request) {
        calls.answer(request, "/customer/unblock", Access.MASTER_KEY, call -> blocked(call, false));
    }

    private JsonNode created(AccountCall call) {
        ObjectNode body = call.body();
        Instant now = api.clock().instant();
        String id = JsonFields.name(JsonFields.required(body, "user_id"), "user_id");
        Customer.Builder builder = Customer.builder(id, now);
        apply(body, builder, Json.MAPPER.createObjectNode(), now);
        Customer customer = OwnerSettings.built("customer", builder::build);
        try {
            api.owners().customers().insert(customer);
        } catch (StoreException e) {
            if (e.reason() == StoreException.Reason.CONFLICT) {
                throw new ApiError(409, "invalid_request_error", "Invalid 'user_id': \"" + id
                        + "\" is already a customer's id (expected: a new id).", "user_id", "duplicate_customer_id");
            }
            throw e;
        }
        call.written().customer(id);
        log.info("customers.created customer={}", id);
        return OwnerViews.customer(customer);
    }

    private JsonNode described(AccountCall call) {
        String id = call.query().text("end_user_id").or(() -> call.query().text("user_id"))
                .orElseThrow(() -> JsonFields.missing("end_user_id"));
        return OwnerViews.customer(find(id, "end_user_id"));
    }

    private JsonNode updated(AccountCall call) {
        ObjectNode body = call.body();
        String id = JsonFields.name(JsonFields.required(body, "user_id"), "user_id");
        Customer existing = find(id, "user_id");
        Customer.Builder builder = existing.toBuilder();
        apply(body, builder, existing.metadata(), api.clock().instant());
        Customer changed = OwnerSettings.built("customer", builder::build);
        if (!api.owners().customers().update(changed)) {
            throw notFound(id, "user_id");
        }
        call.written().customer(id);
        log.info("customers.updated customer={}", id);
        return OwnerViews.customer(api.owners().customers().findById(id).orElse(changed));
    }

    private JsonNode deleted(AccountCall call) {
        List<String> ids = ids(call);
        for (String id : ids) {
            find(id, "user_ids");
        }
        for (String id : ids) {
            api.owners().customers().delete(id);
            call.written().customer(id);
        }
        log.info("customers.deleted count={}", ids.size());
        ObjectNode answer = Json.MAPPER.createObjectNode();
        ids.forEach(answer.putArray("deleted_customers")::add);
        return answer;
    }

    private JsonNode listed(AccountCall call) {
        ArrayNode customers = Json.MAPPER.createArrayNode();
        for (int number = 1; ; number++) {
            List<Customer> batch = api.owners().customers().list(Page.of(number, Page.MAX_SIZE));
            batch.forEach(customer -> customers.add(OwnerViews.customer(customer)));
            if (batch.size() < Page.MAX_SIZE) {
                return customers;
            }
        }
    }

    /** Blocks or unblocks customers; as in LiteLLM, an id not stored yet is made, blocked. */
    private JsonNode blocked(AccountCall call, boolean blocked) {
        List<String> ids = ids(call);
        Instant now = api.clock().instant();
        ArrayNode changed = Json.MAPPER.createArrayNode();
        for (String id : ids) {
            Customer customer = api.owners().customers().findById(id).orElse(null);
            if (customer == null) {
                customer = Customer.builder(id, now).blocked(blocked).build();
                api.owners().customers().insert(customer);
            } else {
                customer = customer.toBuilder().blocked(blocked).build();
                api.owners().customers().update(customer);
            }
            call.written().customer(id);
            changed.add(OwnerViews.customer(customer));
        }
        log.info("customers.{} count={}", blocked ? "blocked" : "unblocked", ids.size());
        ObjectNode answer = Json.MAPPER.createObjectNode();
        answer.set(blocked ? "blocked_users" : "unblocked_users", changed);
        return answer;
    }

    private static List<String> ids(AccountCall call) {
        List<String> ids = JsonFields.ids(JsonFields.required(call.body(), "user_ids"), "user_ids");
        if (ids.isEmpty()) {
            throw JsonFields.invalid("user_ids", call.body().get("user_ids"), "at least one customer id");
        }
        return ids;
    }

    /** The body's settings onto the customer; {@code default_model} and {@code allowed_model_region} into its metadata. */
    private void apply(ObjectNode body, Customer.Builder customer, ObjectNode metadata, Instant now) {
        OwnerSettings.customer(body, customer, now, api.clock().getZone());
        ObjectNode kept = body.has("metadata") && body.get("metadata") instanceof ObjectNode given ? given.deepCopy() : metadata;
        boolean changed = body.has("metadata");
        for (String field : KEPT) {
            if (body.has(field)) {
                kept.set(field, body.get(field));
                changed = true;
            }
        }
        if (changed) {
            customer.metadata(kept);
        }
    }

    private Customer find(String id, String param) {
        return api.owners().customers().findById(id).orElseThrow(() -> notFound(id, param));
    }

    private static ApiError notFound(String id, String param) {
        return new ApiError(404, "invalid_request_error", "Customer not found: no customer has the id \"" + id + "\".", param,
                "customer_not_found");
    }
}
