package dev.sluice.limits;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything one request is limited by: its key's limits, its team's, and its key's limits
 * for the model group it asked for. Immutable; build it with {@link #key} and the
 * {@code with...} methods.
 */
public final class LimitSubject {

    /** One scope and the limits it has for this request. */
    public record Scoped(Scope scope, Limits limits) {
        public Scoped {
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(limits, "limits");
        }
    }

    private final String keyId;
    private final Scoped key;
    private final Optional<Scoped> model;
    private final Optional<Scoped> team;

    private LimitSubject(String keyId, Scoped key, Optional<Scoped> model, Optional<Scoped> team) {
        this.keyId = keyId;
        this.key = key;
        this.model = model;
        this.team = team;
    }

    /** A request made with the key {@code keyId} (its hash), which has {@code limits}. */
    public static LimitSubject key(String keyId, Limits limits) {
        return new LimitSubject(keyId, new Scoped(new Scope.Key(keyId), limits), Optional.empty(), Optional.empty());
    }

    /** The same request, from a key of team {@code teamId}, whose limits are {@code limits}. */
    public LimitSubject withTeam(String teamId, Limits limits) {
        return new LimitSubject(keyId, key, model, Optional.of(new Scoped(new Scope.Team(teamId), limits)));
    }

    /**
     * The same request, for {@code modelGroup}, for which the key has {@code limits}
     * (its {@code model_rpm_limit} and {@code model_tpm_limit} entries for that group).
     */
    public LimitSubject withModel(String modelGroup, Limits limits) {
        return new LimitSubject(keyId, key, Optional.of(new Scoped(new Scope.KeyModel(keyId, modelGroup), limits)), team);
    }

    /** The same request with every scope's limits cut to this replica's share among {@code replicas} ({@link Limits#shareOf}). */
    public LimitSubject shareOf(int replicas) {
        if (replicas <= 1) {
            return this;
        }
        return new LimitSubject(keyId, shared(key, replicas), model.map(m -> shared(m, replicas)), team.map(t -> shared(t, replicas)));
    }

    private static Scoped shared(Scoped scoped, int replicas) {
        return new Scoped(scoped.scope(), scoped.limits().shareOf(replicas));
    }

    /**
     * The scopes that have at least one limit, key first, then the key's model group, then
     * the team. This is also the order counters are locked in, which is what keeps two
     * admissions from waiting on each other: each kind of scope comes once, and always in
     * this order.
     */
    public List<Scoped> limited() {
        List<Scoped> scopes = new ArrayList<>(3);
        if (!key.limits().isEmpty()) {
            scopes.add(key);
        }
        model.filter(m -> !m.limits().isEmpty()).ifPresent(scopes::add);
        team.filter(t -> !t.limits().isEmpty()).ifPresent(scopes::add);
        return scopes;
    }

    @Override
    public String toString() {
        return "LimitSubject" + List.of(key, model, team);
    }
}
