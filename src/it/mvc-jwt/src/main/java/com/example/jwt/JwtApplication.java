package com.example.jwt;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import javax.crypto.spec.SecretKeySpec;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** A JWT resource server: tokens carry the org ({@code org_id}) and the tier ({@code tier}) as claims. */
@SpringBootApplication
@RestController
public class JwtApplication {

	/** A demo HMAC key shared with the tests; a real app verifies its issuer's keys (issuer-uri). */
	public static final String SECRET = "a-demo-secret-of-at-least-thirty-two-bytes!";

	public static void main(String[] args) {
		SpringApplication.run(JwtApplication.class, args);
	}

	@Bean
	SecurityFilterChain security(HttpSecurity http) throws Exception {
		return http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
			.oauth2ResourceServer((server) -> server.jwt(Customizer.withDefaults()))
			.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.csrf((csrf) -> csrf.disable())
			.build();
	}

	@Bean
	JwtDecoder jwtDecoder() {
		return NimbusJwtDecoder
			.withSecretKey(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"))
			.build();
	}

	@GetMapping("/api/whoami")
	Map<String, Object> whoami(Authentication authentication) {
		return Map.of("name", (authentication != null) ? authentication.getName() : "anonymous");
	}

}
