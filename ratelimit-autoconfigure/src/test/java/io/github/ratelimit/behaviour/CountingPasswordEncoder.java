package io.github.ratelimit.behaviour;

import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * A real password encoder (Spring Security's delegating one) that counts how often a
 * password was checked: the work (bcrypt: tens of milliseconds of CPU) that the gate
 * before authentication spares.
 */
final class CountingPasswordEncoder implements PasswordEncoder {

	private final PasswordEncoder delegate = PasswordEncoderFactories.createDelegatingPasswordEncoder();

	private final AtomicInteger checks = new AtomicInteger();

	@Override
	public @Nullable String encode(@Nullable CharSequence rawPassword) {
		return this.delegate.encode(rawPassword);
	}

	@Override
	public boolean matches(@Nullable CharSequence rawPassword, @Nullable String encodedPassword) {
		this.checks.incrementAndGet();
		return this.delegate.matches(rawPassword, encodedPassword);
	}

	/** How many passwords were checked so far. */
	int checks() {
		return this.checks.get();
	}

}
