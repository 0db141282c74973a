package io.github.ratelimit.behaviour;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * An endpoint behind HTTP Basic ({@code /secure/**}), on either web stack.
 */
@RestController
class SecureApi {

	@GetMapping("/secure/hello")
	String hello() {
		return "secret";
	}

}
