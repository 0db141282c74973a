package io.github.ratelimit.behaviour;

import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;

/**
 * The users Spring Security knows in the behavioural apps (HTTP Basic).
 */
enum BehaviourUsers {

	/** A premium user of org {@code acme}, by authorities. */
	PAULA("paula", "paula-secret", "TIER_premium", "ORG_acme"),

	/**
	 * Users whose passwords the login-protection tests guess, one per test so that no
	 * budget is shared.
	 */
	ANA("ana", "ana-secret"), BOB("bob", "bob-secret"), CARL("carl", "carl-secret"), DORA("dora", "dora-secret"),
	EVE("eve", "eve-secret"), FRED("fred", "fred-secret"), VICTOR("victor", "victor-secret");

	private final String name;

	private final String password;

	private final String[] authorities;

	BehaviourUsers(String name, String password, String... authorities) {
		this.name = name;
		this.password = password;
		this.authorities = authorities;
	}

	String username() {
		return this.name;
	}

	String password() {
		return this.password;
	}

	UserDetails toUserDetails() {
		return User.withUsername(this.name).password("{noop}" + this.password).authorities(this.authorities).build();
	}

}
