package io.github.ratelimit.control;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The snapshot of overrides when the policy table is replaced: a request compiles the
 * overrides it read against the new table, and a state the refresher installed meanwhile
 * is never overwritten by it.
 */
class OverridesAndRulesTests {

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final PolicyTable before = PolicyTable.build(Map.of("free", Map.of("org", Map.of("default", "100/1m"))),
			Map.of(), Set.of());

	private final PolicyTable after = PolicyTable.build(Map.of("free", Map.of("org", Map.of("default", "200/1m"))),
			Map.of(), Set.of());

	private final PolicyRegistry registry = new PolicyRegistry(this.before);

	private final OverridesAndRules state = new OverridesAndRules(this.registry, List.of(), this.clock);

	private static ControlState acmeAt(String limit) {
		return new ControlState(List.of(new LimitOverride(Dimension.ORG, "acme", "default", limit, null)), List.of());
	}

	private String acmeLimit() {
		Map<String, Policy> byGroup = this.state.overrides(this.registry.current())
			.of(Dimension.ORG, "acme", this.clock.millis());
		return byGroup.get("default").limit().spec();
	}

	@Test
	void aStateInstalledWhileARequestRecompilesForANewTableIsKept() {
		this.state.install(1, acmeAt("7/1m"));
		this.registry.replace(this.after);
		// a request reads the snapshot of version 1, compiled against the old table...
		OverridesAndRules.Snapshot seen = this.state.snapshot();
		// ...the refresher installs version 2 meanwhile (compiled against the new one)...
		this.state.install(2, acmeAt("9/1m"));
		// ...and the request ends its recompilation: it takes the newer state too
		assertThat(this.state.recompiled(seen, this.after)
			.of(Dimension.ORG, "acme", this.clock.millis())
			.get("default")
			.limit()
			.spec()).isEqualTo("9/1m");
		// and every later request sees version 2, not the older state brought back
		assertThat(this.state.version()).isEqualTo(2);
		assertThat(acmeLimit()).isEqualTo("9/1m");
	}

	@Test
	void overridesRecompiledForANewTableAreCompiledOnceForEveryLaterRequest() {
		this.state.install(1, acmeAt("7/1m"));
		this.registry.replace(this.after);
		Overrides first = this.state.overrides(this.after);
		assertThat(this.state.overrides(this.after)).isSameAs(first);
		assertThat(this.state.version()).isEqualTo(1);
		assertThat(acmeLimit()).isEqualTo("7/1m");
	}

	@Test
	void overridesRecompiledForATableNoLongerInForceAreNotPublished() {
		this.state.install(1, acmeAt("7/1m"));
		PolicyTable replacedAgain = PolicyTable.build(Map.of("free", Map.of("org", Map.of("default", "300/1m"))),
				Map.of(), Set.of());
		// a slow request read the table 'after', which another replaced meanwhile
		this.registry.replace(replacedAgain);
		OverridesAndRules.Snapshot seen = this.state.snapshot();
		assertThat(this.state.recompiled(seen, this.after).of(Dimension.ORG, "acme", this.clock.millis()))
			.containsKey("default");
		assertThat(this.state.snapshot()).isSameAs(seen);
		// later requests compile against the table in force, once
		Overrides current = this.state.overrides(replacedAgain);
		assertThat(this.state.snapshot().table()).isSameAs(replacedAgain);
		assertThat(this.state.overrides(replacedAgain)).isSameAs(current);
	}

}
