package io.github.ratelimit.control;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Dimension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Whom a rule, an override, a ban or an endpoint call names, and the key bans are kept
 * under.
 */
class SubjectTests {

	@Test
	void aCallerIsBannedAsItsUserElseItsKeyElseItsClientGroup() {
		Identity user = new Identity("alice", "acme", "t-0123", "203.0.113.9", "free", true);
		Identity key = new Identity(null, "acme", "t-0123", "203.0.113.9", "free", true);
		Identity anonymous = Identity.anonymous("2001:db8:1:2::/64", "anonymous");
		assertThat(Subject.bannedAs(user)).isEqualTo(Subject.of(Dimension.USER, "alice"));
		assertThat(Subject.banKey(key)).isEqualTo("key:t-0123");
		assertThat(Subject.bannedAs(anonymous).banKey()).isEqualTo("ip:2001:db8:1:2::/64");
		assertThat(Subject.bannedAs(anonymous).dimension()).isEqualTo(Dimension.IP);
	}

	@Test
	void aKeySubjectCountsInTheTokenDimension() {
		Subject key = Subject.parse("key:t-0123456789abcdef0123456789abcdef");
		assertThat(key.dimension()).isEqualTo(Dimension.TOKEN);
		assertThat(Subject.of(Dimension.TOKEN, key.value())).isEqualTo(key);
	}

	@Test
	void aRuleNamesARangeWhereAnOverrideOrBanNamesAClientGroup() {
		Subject rule = Subject.parse("198.51.100.7");
		assertThat(rule.range()).isNotNull();
		assertThat(rule.toString()).isEqualTo("ip:198.51.100.7/32");
		assertThat(Subject.of(Dimension.IP, "198.51.100.7").banKey()).isEqualTo("ip:198.51.100.7");
	}

	@Test
	void noSubjectNamesAnAccount() {
		assertThatIllegalArgumentException().isThrownBy(() -> Subject.of(Dimension.ACCOUNT, "#3q2"));
	}

}
