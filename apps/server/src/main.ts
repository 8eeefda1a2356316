// `npm start`: Merit on DATA_DIR (or DATABASE_URL), as start.ts describes.
import { runMerit } from './start.js';

runMerit();
