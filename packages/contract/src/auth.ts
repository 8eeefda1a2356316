import { z } from 'zod';

export const loginRequest = z.object({
  username: z.string().min(1).max(150),
  password: z.string().min(1).max(1000),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginResponse = z.object({ key: z.string() });
export type LoginResponse = z.infer<typeof loginResponse>;

export const detailResponse = z.object({ detail: z.string() });
