import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The API server (apps/server) in development; it also serves the Help PDF. */
const apiServer = process.env.MERIT_API_URL ?? 'http://localhost:3000';
const proxy = { '/api': apiServer, '/help': apiServer };

export default defineConfig({
  plugins: [react()],
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
  },
});
