package io.github.ratelimit.actuate;

import java.util.List;

import io.github.ratelimit.control.Ban;

/**
 * A ban in force.
 *
 * @param subject whom: the key its bans are kept under ({@code ip:198.51.100.7})
 * @param until when it ends
 * @param secondsLeft whole seconds until then, rounded up
 * @param offence which ban of the subject this is (each repeat lasts twice as long)
 */
public record BanDescriptor(String subject, String until, long secondsLeft, int offence) {

	static List<BanDescriptor> listOf(List<Ban> bans, long nowMillis) {
		return bans.stream().map((ban) -> of(ban, nowMillis)).toList();
	}

	static BanDescriptor of(Ban ban, long nowMillis) {
		return new BanDescriptor(ban.subject(), ban.until().toString(), ban.secondsLeft(nowMillis), ban.offence());
	}

}
