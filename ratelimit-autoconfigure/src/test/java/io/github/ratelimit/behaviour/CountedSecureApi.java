package io.github.ratelimit.behaviour;

import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * An endpoint behind HTTP Basic ({@code /secure/**}) that counts the requests it answers,
 * on either web stack: what a refusal at the gate must never reach.
 */
@RestController
class CountedSecureApi {

	private final AtomicInteger calls = new AtomicInteger();

	@GetMapping("/secure/counted")
	String counted() {
		this.calls.incrementAndGet();
		return "counted";
	}

	int calls() {
		return this.calls.get();
	}

}
