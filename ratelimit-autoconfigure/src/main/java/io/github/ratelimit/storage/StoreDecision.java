package io.github.ratelimit.storage;

import java.util.List;

/**
 * The store's answer for a whole request.
 *
 * @param admitted whether every check had its tokens; when {@code false} nothing was consumed anywhere
 * @param results one result per check, in the order of the checks
 */
public record StoreDecision(boolean admitted, List<CheckResult> results) {

}
