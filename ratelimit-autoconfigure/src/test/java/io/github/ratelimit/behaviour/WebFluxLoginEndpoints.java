package io.github.ratelimit.behaviour;

import java.time.Duration;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import reactor.core.publisher.Mono;

import io.github.ratelimit.annotation.RateLimited;

/**
 * Login handlers on WebFlux that answer 401 for a wrong password, at once, later and by
 * an error signal, and a PIN check with a failures-only limit of its own. The twin of
 * {@link MvcLoginEndpoints}.
 */
@RestController
class WebFluxLoginEndpoints {

	private final PasswordChecks passwords;

	WebFluxLoginEndpoints(PasswordChecks passwords) {
		this.passwords = passwords;
	}

	@PostMapping("/auth/login")
	Mono<ResponseEntity<String>> login(@RequestParam String user, @RequestParam String password) {
		return Mono.fromSupplier(() -> answer(this.passwords.check(user, password)));
	}

	@PostMapping("/auth/login-async")
	Mono<ResponseEntity<String>> loginAsync(@RequestParam String user, @RequestParam String password) {
		return Mono.delay(Duration.ofMillis(20)).map((tick) -> answer(this.passwords.check(user, password)));
	}

	@PostMapping("/auth/login-throws")
	Mono<String> loginThrows(@RequestParam String user, @RequestParam String password) {
		return Mono.fromSupplier(() -> this.passwords.check(user, password))
			.flatMap((right) -> right ? Mono.just("welcome")
					: Mono.error(new ResponseStatusException(HttpStatus.UNAUTHORIZED)));
	}

	@RateLimited(limit = "3/1h", count = "auth-failures")
	@PostMapping("/pin/check")
	Mono<ResponseEntity<String>> pin(@RequestParam String user, @RequestParam String password) {
		return Mono.fromSupplier(() -> answer(this.passwords.check(user, password)));
	}

	private static ResponseEntity<String> answer(boolean right) {
		return right ? ResponseEntity.ok("welcome") : ResponseEntity.status(HttpStatus.UNAUTHORIZED).body("wrong");
	}

}
