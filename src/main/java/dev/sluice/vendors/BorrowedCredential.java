package dev.sluice.vendors;

/**
 * A credential a deployment would take from the gateway although it may not
 * ({@link dev.sluice.config.Deployment#ambient()}): a deployment given through the model API that
 * leaves out its Vertex AI key or AWS keys, or names a key file by path. The message says what is
 * missing and how an operator lends it, never the value written (a path tells which files exist).
 *
 * @param field  the field to write out instead, e.g. {@code litellm_params.vertex_credentials}
 * @param reason why, with what is expected
 */
public record BorrowedCredential(String field, String reason) {}
