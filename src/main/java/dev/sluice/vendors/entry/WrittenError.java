package dev.sluice.vendors.entry;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** An error as the caller's entry API writes it: its status and its body. */
public record WrittenError(int status, ObjectNode body) {}
