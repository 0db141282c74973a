package io.github.ratelimit.behaviour;

import java.io.IOException;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A handler on Spring MVC that completes its response on the wire (all of its
 * {@code Content-Length}, flushed) and then goes on running until the test releases it,
 * and one that answers at once. The twin of {@link WebFluxHeldEndpoints}.
 */
@RestController
class MvcHeldEndpoints {

	private final HeldResponses held;

	MvcHeldEndpoints(HeldResponses held) {
		this.held = held;
	}

	@PostMapping("/held/commit-then-wait")
	void commitThenWait(HttpServletResponse response) throws IOException {
		this.held.enter();
		try {
			response.setContentType(MediaType.TEXT_PLAIN_VALUE);
			response.setContentLength(HeldResponses.BODY.length);
			response.getOutputStream().write(HeldResponses.BODY);
			response.flushBuffer();
			this.held.awaitRelease();
		}
		finally {
			this.held.leave();
		}
	}

	@PostMapping("/held/answer")
	String answer() {
		return "answered";
	}

}
