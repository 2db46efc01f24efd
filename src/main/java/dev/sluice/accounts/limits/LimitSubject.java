package dev.sluice.accounts.limits;

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
    /** The key's user, its team's organization and the call's customer, in that order, those that apply. */
    private final List<Scoped> owners;

    private LimitSubject(String keyId, Scoped key, Optional<Scoped> model, Optional<Scoped> team, List<Scoped> owners) {
        this.keyId = keyId;
        this.key = key;
        this.model = model;
        this.team = team;
        this.owners = owners;
    }

    /** A request made with the key {@code keyId} (its hash), which has {@code limits}. */
    public static LimitSubject key(String keyId, Limits limits) {
        return new LimitSubject(keyId, new Scoped(new Scope.Key(keyId), limits), Optional.empty(), Optional.empty(),
                List.of());
    }

    /** The same request, from a key of team {@code teamId}, whose limits are {@code limits}. */
    public LimitSubject withTeam(String teamId, Limits limits) {
        return new LimitSubject(keyId, key, model, Optional.of(new Scoped(new Scope.Team(teamId), limits)), owners);
    }

    /**
     * The same request, for {@code modelGroup}, for which the key has {@code limits}
     * (its {@code model_rpm_limit} and {@code model_tpm_limit} entries for that group).
     */
    public LimitSubject withModel(String modelGroup, Limits limits) {
        return new LimitSubject(keyId, key, Optional.of(new Scoped(new Scope.KeyModel(keyId, modelGroup), limits)), team, owners);
    }

    /**
     * The same request, whose {@code owner} (the key's user, its team's organization or the
     * call's customer) has {@code limits}. Add owners in that order: it is the order they are locked in.
     */
    public LimitSubject withOwner(Scope owner, Limits limits) {
        List<Scoped> more = new ArrayList<>(owners);
        more.add(new Scoped(owner, limits));
        return new LimitSubject(keyId, key, model, team, List.copyOf(more));
    }

    /**
     * The scopes that have at least one limit, key first, then the key's model group, then
     * the team, then the owners. This is also the order counters are locked in, which is what keeps two
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
        owners.stream().filter(o -> !o.limits().isEmpty()).forEach(scopes::add);
        return scopes;
    }

    @Override
    public String toString() {
        return "LimitSubject" + List.of(key, model, team, owners);
    }
}
