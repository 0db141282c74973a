package io.github.ratelimit.behaviour;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import io.github.ratelimit.annotation.RateLimited;

/**
 * Login handlers on Spring MVC that answer 401 for a wrong password, synchronously,
 * asynchronously and by an exception, and a PIN check with a failures-only limit of its
 * own. The twin of {@link WebFluxLoginEndpoints}.
 */
@RestController
class MvcLoginEndpoints {

	private final PasswordChecks passwords;

	MvcLoginEndpoints(PasswordChecks passwords) {
		this.passwords = passwords;
	}

	@PostMapping("/auth/login")
	ResponseEntity<String> login(@RequestParam String user, @RequestParam String password) {
		return answer(this.passwords.check(user, password));
	}

	@PostMapping("/auth/login-async")
	CompletableFuture<ResponseEntity<String>> loginAsync(@RequestParam String user, @RequestParam String password) {
		// answered on another thread, after the filter chain has returned
		return CompletableFuture.supplyAsync(() -> answer(this.passwords.check(user, password)),
				CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS));
	}

	@PostMapping("/auth/login-throws")
	String loginThrows(@RequestParam String user, @RequestParam String password) {
		if (!this.passwords.check(user, password)) {
			throw new ResponseStatusException(HttpStatus.UNAUTHORIZED);
		}
		return "welcome";
	}

	@RateLimited(limit = "3/1h", count = "auth-failures")
	@PostMapping("/pin/check")
	ResponseEntity<String> pin(@RequestParam String user, @RequestParam String password) {
		return answer(this.passwords.check(user, password));
	}

	private static ResponseEntity<String> answer(boolean right) {
		return right ? ResponseEntity.ok("welcome") : ResponseEntity.status(HttpStatus.UNAUTHORIZED).body("wrong");
	}

}
