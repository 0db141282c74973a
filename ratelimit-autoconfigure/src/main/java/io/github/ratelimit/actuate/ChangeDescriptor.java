package io.github.ratelimit.actuate;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * What a write or a delete of the {@code ratelimits} endpoint did (a set override or rule
 * is answered with its {@link OverrideDescriptor} or {@link RuleDescriptor}).
 */
public sealed interface ChangeDescriptor extends OperationResponseBody {

	/**
	 * The buckets of an identity were reset ({@code POST …/reset}).
	 *
	 * @param reset how many
	 * @param dimension the dimension
	 * @param id the id in it
	 */
	record Reset(int reset, String dimension, String id) implements ChangeDescriptor {

	}

	/**
	 * An override was deleted ({@code DELETE …/overrides}).
	 *
	 * @param deleted whether there was one
	 * @param dimension the dimension
	 * @param id the id in it
	 * @param group its group
	 */
	record OverrideDeleted(boolean deleted, String dimension, String id, String group) implements ChangeDescriptor {

	}

	/**
	 * A runtime rule was deleted ({@code DELETE …/rules}).
	 *
	 * @param deleted whether there was one
	 * @param subject whom it named
	 */
	record RuleDeleted(boolean deleted, String subject) implements ChangeDescriptor {

	}

	/**
	 * A ban was lifted ({@code DELETE …/bans}).
	 *
	 * @param lifted whether one was in force
	 * @param subject the key its bans are kept under
	 */
	record BanLifted(boolean lifted, String subject) implements ChangeDescriptor {

	}

}
