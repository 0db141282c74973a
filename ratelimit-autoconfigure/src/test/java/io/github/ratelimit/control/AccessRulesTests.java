package io.github.ratelimit.control;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.identity.CredentialHashes;
import io.github.ratelimit.identity.Identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Allow and deny rules: what they name, which wins, and that keys are named by hash only.
 */
class AccessRulesTests {

	private static final Identity alice = new Identity("alice", "acme", null, "203.0.113.9", "free", true);

	@Test
	void subjectsNameUsersOrgsKeysAndRanges() {
		assertThat(Subject.parse("user:alice").matches(alice, "203.0.113.9")).isTrue();
		assertThat(Subject.parse("org:acme").matches(alice, "203.0.113.9")).isTrue();
		assertThat(Subject.parse("203.0.113.0/24").matches(alice, "203.0.113.9")).isTrue();
		assertThat(Subject.parse("ip:2001:db8::/32").matches(alice, "2001:db8:1::7")).isTrue();
		assertThat(Subject.parse("2001:db8::/32").matches(alice, "203.0.113.9")).isFalse();
		String sha = CredentialHashes.sha256Hex("secret-key");
		Subject key = Subject.parse("key:" + sha.toUpperCase());
		assertThat(key.value()).isEqualTo(CredentialHashes.tokenId("secret-key"));
		Identity withKey = new Identity(null, null, CredentialHashes.tokenId("secret-key"), "203.0.113.9", "free",
				true);
		assertThat(key.matches(withKey, "203.0.113.9")).isTrue();
	}

	@Test
	void aRawKeyOrGarbageIsRefusedWithTheReason() {
		assertThatIllegalArgumentException().isThrownBy(() -> Subject.parse("key:secret-key"))
			.withMessageContaining("never the key itself");
		assertThatIllegalArgumentException().isThrownBy(() -> Subject.parse("10.0.0.1/8"))
			.withMessageContaining("did you mean 10.0.0.0/8");
		assertThatIllegalArgumentException().isThrownBy(() -> Subject.parse("user:"));
		assertThatIllegalArgumentException().isThrownBy(() -> Subject.parse("user:a\nb"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> AccessRule.parse(AccessRule.Access.DENY, "user:x as premium"))
			.withMessageContaining("no tier");
	}

	@Test
	void denyWinsOverAllowAndAnAllowRuleMayGiveATier() {
		AccessRules rules = new AccessRules(List.of(AccessRule.parse(AccessRule.Access.ALLOW, "203.0.113.0/24"),
				AccessRule.parse(AccessRule.Access.DENY, "user:alice"),
				AccessRule.parse(AccessRule.Access.ALLOW, "org:globex as premium")));
		assertThat(rules.check(alice, "203.0.113.9", 0).denied()).isTrue();
		Identity bob = new Identity("bob", "globex", null, "198.51.100.1", "free", true);
		AccessVerdict verdict = rules.check(bob, "198.51.100.1", 0);
		assertThat(verdict.bypasses()).isFalse();
		assertThat(verdict.tier()).isEqualTo("premium");
		Identity anonymous = Identity.anonymous("203.0.113.10", "anonymous");
		assertThat(rules.check(anonymous, "203.0.113.10", 0).bypasses()).isTrue();
		assertThat(rules.check(Identity.anonymous("198.51.100.2", "anonymous"), "198.51.100.2", 0))
			.isEqualTo(AccessVerdict.NONE);
	}

	@Test
	void anExpiredRuleNoLongerApplies() {
		AccessRule rule = new AccessRule(AccessRule.Access.DENY, Subject.parse("user:alice"), null,
				Instant.ofEpochMilli(1000));
		AccessRules rules = new AccessRules(List.of(rule));
		assertThat(rules.check(alice, "203.0.113.9", 999).denied()).isTrue();
		assertThat(rules.check(alice, "203.0.113.9", 1000).denied()).isFalse();
	}

}
