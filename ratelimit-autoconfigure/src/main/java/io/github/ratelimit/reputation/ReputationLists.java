package io.github.ratelimit.reputation;

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.core.AddressScreen;
import io.github.ratelimit.core.DenialReason;
import io.github.ratelimit.identity.AddressBits;
import io.github.ratelimit.identity.AddressTiers;

/**
 * The reputation lists in force: a deny list refuses its addresses at the gate
 * ({@code reputation_denied}); a tier list holds its anonymous callers to a tier of
 * tighter limits. Lookups read each list's ranges in force, never its source.
 */
public final class ReputationLists implements AddressScreen, AddressTiers {

	private final List<ReputationList> deny;

	private final List<ReputationList> tiered;

	private final List<ReputationList> all;

	/**
	 * Creates the set.
	 * @param lists the lists, deny and tier lists alike
	 */
	public ReputationLists(List<ReputationList> lists) {
		this.all = List.copyOf(lists);
		this.deny = this.all.stream().filter((list) -> list.tier() == null).toList();
		this.tiered = this.all.stream().filter((list) -> list.tier() != null).toList();
	}

	@Override
	public @Nullable DenialReason screen(AddressBits address) {
		for (ReputationList list : this.deny) {
			if (list.contains(address)) {
				return DenialReason.REPUTATION;
			}
		}
		return null;
	}

	/** Whether any list denies addresses. */
	@Override
	public boolean refuses() {
		return !this.deny.isEmpty();
	}

	/**
	 * The tier of the first tier list that holds an address.
	 * @param address a client address literal
	 * @return the tier, or {@code null} when no tier list holds it
	 */
	@Override
	public @Nullable String tierOf(String address) {
		if (this.tiered.isEmpty()) {
			return null;
		}
		AddressBits bits = AddressBits.parse(address);
		if (bits == null) {
			return null;
		}
		for (ReputationList list : this.tiered) {
			if (list.contains(bits)) {
				return list.tier();
			}
		}
		return null;
	}

	/** Whether any list holds its addresses to a tier. */
	@Override
	public boolean assigns() {
		return !this.tiered.isEmpty();
	}

	/** Refreshes every list whose interval has passed: the scheduled task. */
	public void refreshDue() {
		for (ReputationList list : this.all) {
			try {
				list.refreshIfDue();
			}
			catch (RuntimeException ex) {
				// never kills the schedule: the list keeps what it holds
			}
		}
	}

	/** The lists, deny and tier lists alike. */
	public List<ReputationList> lists() {
		return this.all;
	}

}
