package io.github.ratelimit.core.status;

import java.util.List;

/**
 * A caller's standing in one endpoint group: what a request there costs and the budgets
 * it takes from.
 *
 * @param cost the tokens a request of the group takes (a handler's own cost may differ)
 * @param blocked whether the caller may not call the group at all (a limit of {@code 0},
 * or one that can never hold the cost): 403, waiting never helps
 * @param budgets every enforced bandwidth that applies to the caller's requests in the
 * group; empty when none does (unlimited)
 */
public record GroupStanding(long cost, boolean blocked, List<Budget> budgets) {

	public GroupStanding {
		budgets = List.copyOf(budgets);
	}

}
