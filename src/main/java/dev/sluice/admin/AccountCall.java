package dev.sluice.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Caller;
import dev.sluice.http.QueryParams;

/**
 * One key or team API call once its caller is known and its body read.
 *
 * @param body    the JSON body; an empty object when there was none
 * @param written where the call's store work records each key and team it writes
 */
record AccountCall(Caller caller, ObjectNode body, QueryParams query, WrittenAccounts written) {}
