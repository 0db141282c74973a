package io.github.ratelimit.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The account a login attempt tries, as login protection keys it: names that differ only
 * in case or in surrounding spaces share one budget, the name itself is never kept, and a
 * huge name costs no more than 256 characters to hash.
 */
class LoginAttemptTests {

	@Test
	void noNameOrABlankOneTriesNoAccount() {
		assertThat(LoginAttempt.on(null)).isSameAs(LoginAttempt.ANONYMOUS);
		assertThat(LoginAttempt.on("")).isSameAs(LoginAttempt.ANONYMOUS);
		assertThat(LoginAttempt.on("   \t ")).isSameAs(LoginAttempt.ANONYMOUS);
		assertThat(LoginAttempt.ANONYMOUS.account()).isNull();
	}

	@Test
	void caseAndSurroundingSpacesDoNotMakeAnotherAccount() {
		LoginAttempt alice = LoginAttempt.on("alice");
		assertThat(alice.account()).isNotNull();
		assertThat(LoginAttempt.on(" Alice ")).isEqualTo(alice);
		assertThat(LoginAttempt.on("ALICE")).isEqualTo(alice);
		assertThat(LoginAttempt.on("\taLiCe\n")).isEqualTo(alice);
	}

	@Test
	void differentNamesAreDifferentAccounts() {
		assertThat(LoginAttempt.on("alice").account()).isNotEqualTo(LoginAttempt.on("bob").account());
		assertThat(LoginAttempt.on("alice").account()).isNotEqualTo(LoginAttempt.on("alice2").account());
		// spaces inside a name are part of it
		assertThat(LoginAttempt.on("al ice").account()).isNotEqualTo(LoginAttempt.on("alice").account());
	}

	@Test
	void theAccountIsAHashAndNeverTheNameTried() {
		String name = "alice@example.com";
		String account = LoginAttempt.on(name).account();
		assertThat(account).doesNotContainIgnoringCase("alice").doesNotContainIgnoringCase("example");
		// a fixed-size key whatever the name's length, marked as a hash for the store key
		assertThat(account).startsWith("#").hasSize(23);
		assertThat(LoginAttempt.on("x".repeat(200)).account()).hasSize(23);
	}

	@Test
	void aVeryLongNameIsAcceptedAndOnlyItsFirst256CharactersCount() {
		String longName = "a".repeat(10_000);
		LoginAttempt attempt = LoginAttempt.on(longName);
		assertThat(attempt.account()).isNotNull().hasSize(23);
		// intended: names are cut at 256 characters before hashing, so an attacker cannot
		// make the gate hash
		// megabytes; two names that differ only after that share one account (and one
		// budget)
		String prefix = "b".repeat(256);
		assertThat(LoginAttempt.on(prefix + "first")).isEqualTo(LoginAttempt.on(prefix + "second"));
		assertThat(LoginAttempt.on(prefix + "first")).isEqualTo(LoginAttempt.on(prefix));
		// a difference within the first 256 characters still tells them apart
		assertThat(LoginAttempt.on("c" + "b".repeat(255) + "x")).isNotEqualTo(LoginAttempt.on(prefix + "x"));
	}

}
