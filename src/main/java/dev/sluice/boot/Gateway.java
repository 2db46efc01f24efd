package dev.sluice.boot;

import dev.sluice.accounts.Accounts;
import dev.sluice.call.CallServices;
import dev.sluice.config.SluiceConfig;
import dev.sluice.edge.EdgeServices;
import dev.sluice.state.sync.StoredModelSync;
import dev.sluice.state.sync.StoredRouterSettingsSync;
import dev.sluice.time.TimeSource;
import dev.sluice.vendors.openai.responses.store.MemoryResponses;
import java.util.Optional;

/**
 * What the event loops of one gateway share, as {@link GatewayAssembly} built it: each
 * event loop's {@link GatewayVerticle} hands every part its own share of it.
 *
 * @param calls          what the model-call path reads
 * @param edge           what the routes that call no model read
 * @param storedModels   the deployments added through the model API, kept in step with the
 *                       store; empty when no store is open
 * @param storedSettings the router settings changed through the router settings API, kept in
 *                       step with the store; empty when no store is open
 * @param guards         what bounds the connections and what is read without a key, over every event loop
 * @param memoryResponses where the Responses API keeps its responses when no store is open
 */
record Gateway(SluiceConfig config, CallServices calls, EdgeServices edge, Optional<Accounts> accounts,
        Optional<StoredModelSync> storedModels, Optional<StoredRouterSettingsSync> storedSettings, TimeSource time,
        EdgeGuards guards, MemoryResponses memoryResponses) {}
