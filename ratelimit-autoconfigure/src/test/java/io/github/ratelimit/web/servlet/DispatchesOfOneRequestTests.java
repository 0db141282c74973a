package io.github.ratelimit.web.servlet;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.ratelimit.test.AutoConfigurationWithoutSecurity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request is limited once however many times the servlet container dispatches it: a
 * forward or an include within it, and the error page of a handler that failed, are the
 * same request (embedded Tomcat, the filters registered as the auto-configuration
 * registers them, for every dispatcher type).
 */
@SpringBootTest(classes = DispatchesOfOneRequestTests.DispatchingApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "ratelimit.tiers.anonymous.ip.default=10/1h", "logging.level.org.apache.catalina.core=off" })
class DispatchesOfOneRequestTests {

	private final HttpClient client = HttpClient.newHttpClient();

	@Value("${local.server.port}")
	private int port;

	@Test
	void aForwardedRequestIsChargedOnce() throws Exception {
		assertThat(get("/forwarding", "198.51.100.1").body()).isEqualTo("target");
		assertThat(remaining(get("/target", "198.51.100.1"))).isEqualTo("8");
	}

	@Test
	void anIncludingRequestIsChargedOnce() throws Exception {
		assertThat(get("/including", "198.51.100.2").body()).isEqualTo("target");
		assertThat(remaining(get("/target", "198.51.100.2"))).isEqualTo("8");
	}

	@Test
	void aFailedRequestAndItsErrorPageAreChargedOnce() throws Exception {
		HttpResponse<String> failed = get("/failing", "198.51.100.3");
		assertThat(failed.statusCode()).isEqualTo(500);
		assertThat(remaining(failed)).isEqualTo("9");
		assertThat(remaining(get("/target", "198.51.100.3"))).isEqualTo("8");
	}

	private HttpResponse<String> get(String path, String client) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.header("X-Forwarded-For", client)
			.build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static String remaining(HttpResponse<String> response) {
		return response.headers().firstValue("X-RateLimit-Remaining").orElse("(none)");
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@AutoConfigurationWithoutSecurity
	@Import(DispatchingApplication.Api.class)
	static class DispatchingApplication {

		@RestController
		static class Api {

			@GetMapping("/target")
			String target() {
				return "target";
			}

			@GetMapping("/forwarding")
			void forwarding(HttpServletRequest request, HttpServletResponse response)
					throws ServletException, IOException {
				request.getRequestDispatcher("/target").forward(request, response);
			}

			@GetMapping("/including")
			void including(HttpServletRequest request, HttpServletResponse response)
					throws ServletException, IOException {
				request.getRequestDispatcher("/target").include(request, response);
			}

			@GetMapping("/failing")
			String failing() {
				throw new IllegalStateException("failed on purpose");
			}

		}

	}

}
