/**
 * Where responses answered through the Responses API are kept between calls:
 * {@link dev.sluice.responses.ResponseStore}, the non-blocking seam the gateway calls, with
 * {@link dev.sluice.responses.MemoryResponses} for a gateway without a store and
 * {@link dev.sluice.responses.DatabaseResponses} over the store's
 * {@link dev.sluice.store.ResponseRepository}, both bounded by
 * {@link dev.sluice.responses.ResponseLimits}.
 *
 * <p>This package stands below the HTTP edge and the call path: it knows the store, not who
 * calls it.
 */
package dev.sluice.vendors.openai.responses.store;

